import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { SMOKE, runSuite } from './suite.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

// `npm run bench -- --smoke` inside `npm test`: the suite still starts the dev stack and every
// scenario still produces figures without errors. 0.3 s per figure, so nothing here says
// anything about speed (no figure is compared with a target).
describe('benchmark suite, smoke mode', () => {
  it('runs all nine scenarios against a fresh dev stack, each with results and no errors', async () => {
    const run = await runSuite(repoRoot, SMOKE, undefined);
    expect(run.failures).toEqual([]);
    expect(run.results.map((r) => r.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    for (const result of run.results) {
      expect(result.checks.length).toBeGreaterThan(0);
      for (const figure of result.figures) {
        expect({ label: figure.label, errors: figure.errors }).toEqual({
          label: figure.label,
          errors: 0,
        });
        expect(figure.total).toBeGreaterThan(0);
      }
    }
    // 8. oidc-login: every flow ended with the user's id_token (not speed); 9. siwe-login: every
    // login answered the linked user's result.
    for (const id of [8, 9]) {
      expect(run.results.find((r) => r.id === id)!.checks.every((c) => c.met)).toBe(true);
    }
    // 6. transfer: the flows' own consistency checks (not speed).
    const transfer = run.results.find((r) => r.id === 6)!;
    expect(transfer.checks.filter((c) => c.target !== '≥ 70 % of raw ethers sends')).toEqual(
      transfer.checks
        .filter((c) => c.target !== '≥ 70 % of raw ethers sends')
        .map((c) => ({ ...c, met: true })),
    );
    // A dev stack's start and nine scenarios: about a minute alone, longer beside other suites.
  }, 240_000);
});
