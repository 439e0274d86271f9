import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SCENARIOS, type Budget, type ScenarioResult } from './scenarios.js';
import { openStack } from './stack.js';

export const FULL: Budget = {
  seconds: 10,
  connections: 50,
  cryptoConnections: 10,
  transferLanes: 4,
  // 1 s (2 s until scenarios 11–14 came): the run stays within 10 minutes (src/plan.ts).
  warmupSeconds: 1,
};
/** 0.3 s per figure: proves every scenario still runs (CI), says nothing about speed. */
export const SMOKE: Budget = {
  seconds: 0.3,
  connections: 4,
  cryptoConnections: 2,
  transferLanes: 2,
  warmupSeconds: 0,
};

/**
 * `--only 4,7` or `--only=4,7` in `argv`: the scenarios to run, by their number (as in
 * RESULTS.md); undefined without the option. Throws on anything else.
 */
export function parseOnly(argv: readonly string[]): Set<number> | undefined {
  const at = argv.findIndex((a) => a === '--only' || a.startsWith('--only='));
  if (at < 0) return undefined;
  const option = argv[at]!;
  const value = option.includes('=') ? option.slice('--only='.length) : argv[at + 1];
  const ids = (value ?? '').split(',').map((part) => Number(part.trim()));
  if (ids.some((id) => !Number.isInteger(id) || id < 1 || id > SCENARIOS.length)) {
    throw new Error(`--only takes scenario numbers 1–${SCENARIOS.length}, got "${value ?? ''}"`);
  }
  return new Set(ids);
}

export interface SuiteRun {
  results: ScenarioResult[];
  /** Scenarios that threw, by name. */
  failures: Array<{ name: string; error: string }>;
  /** Each scenario run (by its number and function name): the seconds it took. */
  timings: Array<{ id: number; name: string; seconds: number }>;
  stack: 'started' | 'BASE';
}

/**
 * Runs every scenario (or those numbered in `only`) against the stack at `base`, or
 * against a dev stack it starts (and stops). A scenario that throws is recorded as a failure; the
 * others still run.
 */
export async function runSuite(
  repoRoot: string,
  budget: Budget,
  base: string | undefined,
  log: (line: string) => void = () => undefined,
  only?: ReadonlySet<number>,
): Promise<SuiteRun> {
  const dir = mkdtempSync(join(tmpdir(), 'itp-bench-ref-'));
  const stack = await openStack(repoRoot, base);
  const results: ScenarioResult[] = [];
  const failures: SuiteRun['failures'] = [];
  const timings: SuiteRun['timings'] = [];
  try {
    for (const [index, scenario] of SCENARIOS.entries()) {
      if (only && !only.has(index + 1)) continue;
      log(`running ${scenario.name}`);
      const started = performance.now();
      try {
        results.push(await scenario({ stack, budget, dir }));
      } catch (err) {
        failures.push({
          name: scenario.name,
          error: err instanceof Error ? err.message : String(err),
        });
      }
      const seconds = Math.round((performance.now() - started) / 100) / 10;
      timings.push({ id: index + 1, name: scenario.name, seconds });
      log(`${scenario.name} took ${seconds} s`);
    }
  } finally {
    await stack.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return { results, failures, timings, stack: base ? 'BASE' : 'started' };
}
