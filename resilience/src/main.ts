/**
 * `npm run resilience` (Nx target resilience:run): the full profile against a freshly started
 * stack; writes its figures into docs/reliability.md (the only way they get there: the figures
 * in the docs are always those of this command) and exits 1 when a rule was broken.
 * `--profile quick` runs the CI profile the same way and prints its figures instead (a quick run
 * never replaces the full run's). RESILIENCE_FUZZ_INPUTS overrides the number of fuzz inputs;
 * RESILIENCE_SEED the fuzzer's seed.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { closeAgent } from './client/http.js';
import { PROFILES } from './profiles.js';
import { figuresMarkdown, replaceFigures } from './report/write-report.js';
import { runSuite } from './run-suite.js';
import { REPO_ROOT } from '@itp/harness';
import { violations } from './verdict.js';

const name = process.argv.includes('--profile')
  ? process.argv[process.argv.lastIndexOf('--profile') + 1]
  : 'full';
if (name !== 'quick' && name !== 'full') throw new Error(`--profile quick|full, not ${name}`);
const profile = { ...PROFILES[name] };
if (process.env.RESILIENCE_FUZZ_INPUTS)
  profile.fuzzInputs = Number(process.env.RESILIENCE_FUZZ_INPUTS);

const figures = await runSuite(profile, (line) => console.log(line));
await closeAgent();
const note = process.env.RESILIENCE_NOTE ?? '';
const markdown = figuresMarkdown(figures, note);
if (name === 'full') {
  const file = join(REPO_ROOT, 'docs/reliability.md');
  const report = replaceFigures(readFileSync(file, 'utf8'), markdown);
  // Formatted as `npm run format:check` wants it, so a fresh run can be committed as it is.
  const prettier = await import('prettier');
  const options = (await prettier.resolveConfig(file)) ?? {};
  writeFileSync(file, await prettier.format(report, { ...options, filepath: file }));
  console.log(`figures written to ${file}`);
} else {
  console.log(markdown);
}
const broken = violations(figures);
for (const v of broken) console.error(`broken: ${v}`);
process.exit(broken.length === 0 ? 0 : 1);
