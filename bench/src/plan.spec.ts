import { describe, expect, it } from '@jest/globals';
import { MAX_RUN_SECONDS, PLANS, STACK_SECONDS, runPlan, scenarioSeconds } from './plan.js';
import { SCENARIOS } from './scenarios.js';
import { FULL, SMOKE } from './suite.js';

describe('the plan of npm run bench (issue 37: ≤ 10 minutes)', () => {
  it('has a plan for every scenario of SCENARIOS', () => {
    expect(runPlan(FULL).missing).toEqual([]);
    expect(runPlan(FULL).scenarios.map((s) => s.id)).toEqual(SCENARIOS.map((_, i) => i + 1));
  });

  it('takes at most 10 minutes with the default budget, the stack’s start and stop included', () => {
    const { totalSeconds, scenarios } = runPlan(FULL);
    const summary = scenarios.map((s) => `${s.id} ${s.name} ${s.seconds} s`).join('\n');
    // On failure the summary says where the time goes: lower FULL or a scenario's figures.
    expect({ withinTenMinutes: totalSeconds <= MAX_RUN_SECONDS, totalSeconds, summary }).toEqual({
      withinTenMinutes: true,
      totalSeconds,
      summary,
    });
  });

  it('computes seconds × figures + warm-ups + what a scenario bounds itself + set-up', () => {
    const budget = { ...FULL, seconds: 10, warmupSeconds: 2 };
    expect(scenarioSeconds({ figures: 6, warmups: 6, setupSeconds: 2 }, budget)).toBe(74);
    expect(
      scenarioSeconds(
        { figures: 3, timedFigures: 1, warmups: 0, bounded: (b) => 5 * b.seconds, setupSeconds: 8 },
        budget,
      ),
    ).toBe(68);
    // The sessions scenario bounds its logins (4 × seconds) and refreshes (1 ×) by the budget.
    expect(scenarioSeconds(PLANS.sessionsScenario!, budget)).toBe(5 * 10 + 10);
    // --only: the chosen scenarios and the stack.
    const only = runPlan(budget, new Set([1]));
    expect(only.scenarios.map((s) => s.id)).toEqual([1]);
    expect(only.totalSeconds).toBe(STACK_SECONDS + 74);
  });

  it('keeps the smoke (npm test) short: under 3 minutes of plan', () => {
    expect(runPlan(SMOKE).totalSeconds).toBeLessThan(180);
  });
});
