/**
 * `npm run bench` (Nx target `bench:bench`): the loopback benchmark suite. Starts the
 * dev stack (`npm start` on a free port, fresh data folder) or uses the one at BASE, runs the
 * scenarios (bench/src/scenarios.ts), each bounded in time, and appends a dated section to
 * bench/RESULTS.md and a
 * JSON file under bench/results/ (machine, date, commit, every figure beside its reference).
 *
 *   npm run bench                  # full run (≤ 10 min: src/plan.ts, checked by plan.spec.ts)
 *   npm run bench -- --smoke       # 0.3 s per figure; writes nothing unless --write
 *   npm run bench -- --only 4,7    # scenarios 4 and 7 only; prints, writes with --write
 *   npm run bench -- --smoke --json  # prints the run as JSON (what the results files hold)
 *   BASE=http://127.0.0.1:8080 npm run bench
 *
 * BENCH_SECONDS / BENCH_CONNECTIONS override the full budget.
 */
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { runPlan } from './plan.js';
import { commit, load1, machine, markdownSection, type RunInfo } from './report.js';
import { FULL, SMOKE, parseOnly, runSuite } from './suite.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const benchDir = fileURLToPath(new URL('..', import.meta.url));
const argv = process.argv.slice(2);
const args = new Set(argv);
const smoke = args.has('--smoke');
let only: Set<number> | undefined;
try {
  only = parseOnly(argv);
} catch (err) {
  process.stderr.write(
    `${(err as Error).message}\nusage: npm run bench -- [--smoke [--write]] [--only 1,2,…9] [--json]\n`,
  );
  process.exit(2);
}
const budget = smoke
  ? SMOKE
  : {
      ...FULL,
      seconds: Number(process.env.BENCH_SECONDS ?? FULL.seconds),
      connections: Number(process.env.BENCH_CONNECTIONS ?? FULL.connections),
    };
const base = process.env.BASE || undefined;
const plan = runPlan(budget, only);
process.stderr.write(
  `[bench] plan: ${plan.scenarios.length} scenarios, at most ~${Math.ceil(plan.totalSeconds / 60)} min ` +
    `(${plan.totalSeconds} s with the stack's start and stop; src/plan.ts)\n`,
);
if (plan.missing.length > 0) {
  process.stderr.write(`[bench] no plan in src/plan.ts for: ${plan.missing.join(', ')}\n`);
}

const before = load1();
const run = await runSuite(
  repoRoot,
  budget,
  base,
  (line) => process.stderr.write(`[bench] ${line}\n`),
  only,
);
const now = new Date();
const info: RunInfo = {
  date: now.toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
  machine: machine(),
  node: process.version,
  commit: commit(repoRoot),
  load: { before, after: load1() },
  mode: smoke ? 'smoke' : 'full',
  ...(only ? { only: [...only].sort((a, b) => a - b) } : {}),
  budget,
  stack: run.stack === 'BASE' ? `the running stack at ${base}` : 'started by the suite (npm start)',
};
const section = markdownSection(info, run.results);
// --json: the run as the results files hold it, for a caller that checks it (the dev-stack spec).
if (args.has('--json')) {
  process.stdout.write(
    `${JSON.stringify({ ...info, results: run.results, failures: run.failures, plan: plan.scenarios, timings: run.timings })}\n`,
  );
} else process.stdout.write(`${section}\n`);
for (const failure of run.failures)
  process.stderr.write(`[bench] ${failure.name} FAILED: ${failure.error}\n`);
/** Written in the repository's Prettier style, so `npm test`'s format check stays green. */
async function writeFormatted(file: string, text: string): Promise<void> {
  const options = (await resolveConfig(file)) ?? {};
  writeFileSync(file, await format(text, { ...options, filepath: file }));
}

// A full run is recorded; a smoke or an --only run only prints unless told to --write.
if ((!smoke && !only) || args.has('--write')) {
  const resultsMd = `${benchDir}/RESULTS.md`;
  appendFileSync(resultsMd, `\n${section}`);
  await writeFormatted(resultsMd, readFileSync(resultsMd, 'utf8'));
  mkdirSync(`${benchDir}/results`, { recursive: true });
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  await writeFormatted(
    `${benchDir}/results/${stamp}.json`,
    JSON.stringify({ ...info, results: run.results, failures: run.failures }),
  );
}
process.exitCode = run.failures.length > 0 ? 1 : 0;
