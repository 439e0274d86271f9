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
  warmupSeconds: 2,
};
/** A few seconds per scenario: proves every scenario still runs (CI), says nothing about speed. */
export const SMOKE: Budget = {
  seconds: 1,
  connections: 4,
  cryptoConnections: 2,
  transferLanes: 2,
  warmupSeconds: 0,
};

export interface SuiteRun {
  results: ScenarioResult[];
  /** Scenarios that threw, by name. */
  failures: Array<{ name: string; error: string }>;
  stack: 'started' | 'BASE';
}

/**
 * Runs the seven scenarios against the stack at `base`, or against a dev stack it starts (and
 * stops). A scenario that throws is recorded as a failure; the others still run.
 */
export async function runSuite(
  repoRoot: string,
  budget: Budget,
  base: string | undefined,
  log: (line: string) => void = () => undefined,
): Promise<SuiteRun> {
  const dir = mkdtempSync(join(tmpdir(), 'itp-bench-ref-'));
  const stack = await openStack(repoRoot, base);
  const results: ScenarioResult[] = [];
  const failures: SuiteRun['failures'] = [];
  try {
    for (const scenario of SCENARIOS) {
      log(`running ${scenario.name}`);
      try {
        results.push(await scenario({ stack, budget, dir }));
      } catch (err) {
        failures.push({
          name: scenario.name,
          error: err instanceof Error ? err.message : String(err),
        });
      }
    }
  } finally {
    await stack.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return { results, failures, stack: base ? 'BASE' : 'started' };
}
