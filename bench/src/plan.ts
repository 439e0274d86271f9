/**
 * How long `npm run bench` takes, computed before it runs: per scenario, its timed figures ×
 * the budget's seconds, its warm-ups × the warm-up seconds, what it bounds by time itself (the
 * sessions of 14), and a set-up allowance (logins, relying parties added with the CLI, reference
 * servers), plus the stack's start and stop. plan.spec.ts fails when the default plan (FULL)
 * passes 10 minutes (issue 37: `npm run bench` stays bounded); the bench-smoke suite checks that
 * each scenario reports as many figures as its plan says.
 */
import { SCENARIOS, type Budget } from './scenarios.js';
import { sessionsTime } from './scenario-sessions.js';

export interface ScenarioPlan {
  /** The figures the scenario reports (the bench smoke checks the number). */
  figures: number;
  /** How many of them last `budget.seconds` each: all unless said (14's are bounded by count). */
  timedFigures?: number;
  /** Warm-ups of `budget.warmupSeconds` each, not reported. */
  warmups: number;
  /** Seconds the scenario bounds itself besides its figures (e.g. the sessions it makes). */
  bounded?: (budget: Budget) => number;
  /** Allowance for its set-up and checks outside the figures, seconds, on a loaded machine. */
  setupSeconds: number;
}

/** The plan of every scenario, by the name of its function in SCENARIOS. */
export const PLANS: Record<string, ScenarioPlan> = {
  // 6 and 7 HTTP figures, each after its warm-up; a reference server started.
  gatewayScenario: { figures: 6, warmups: 6, setupSeconds: 2 },
  getBlockScenario: { figures: 7, warmups: 7, setupSeconds: 2 },
  // The gateway figure has a warm-up; the in-process references (did-jwt's and did-service's own
  // verification, ADR 0034) have none. The identity (a login, a wallet, a DID, a credential) is
  // made once for 3 and 4.
  verifyVcScenario: { figures: 3, warmups: 1, setupSeconds: 4 },
  createVcScenario: { figures: 2, warmups: 1, setupSeconds: 2 },
  authUserScenario: { figures: 2, warmups: 1, setupSeconds: 1 },
  // Wallets made and funded, nonces checked.
  transferScenario: { figures: 2, warmups: 0, setupSeconds: 4 },
  startupScenario: { figures: 0, warmups: 0, setupSeconds: 0 },
  // A relying party added with auth-service's CLI (a process of its own), one flow first.
  oidcLoginScenario: { figures: 4, warmups: 1, setupSeconds: 6 },
  // One address linked per connection (a login, a nonce and a link each).
  siweLoginScenario: { figures: 3, warmups: 1, setupSeconds: 3 },
  // The CLI, and one password login per connection.
  oidcGrantsScenario: { figures: 2, warmups: 1, setupSeconds: 8 },
  // Two password logins (step-up), the registration, its removal.
  passkeyLoginScenario: { figures: 3, warmups: 1, setupSeconds: 3 },
  // The site's credentials and the wallet's credential (issuance) before the figures.
  presentationVerifyScenario: { figures: 3, warmups: 1, setupSeconds: 6 },
  sdJwtIssuanceScenario: { figures: 2, warmups: 1, setupSeconds: 4 },
  // Logins up to SESSIONS_MAX or 4 × seconds, one refresh of each up to 1 × seconds; the CLI,
  // one login per loop before the first sample, three samples (SQLite counted).
  sessionsScenario: {
    figures: 2,
    timedFigures: 0,
    warmups: 0,
    bounded: (budget) => {
      const time = sessionsTime(budget);
      return time.logins + time.refreshes;
    },
    setupSeconds: 10,
  },
};

/** `npm start` until /health/ready on a loaded machine, and its stop (SIGINT, grace). */
export const STACK_SECONDS = 45;

/** The ceiling of a default run (issue 37). */
export const MAX_RUN_SECONDS = 600;

export interface PlannedScenario {
  id: number;
  name: string;
  figures: number;
  seconds: number;
}

/** Seconds one scenario takes at `budget` (its figures are bounded; set-up is an allowance). */
export function scenarioSeconds(plan: ScenarioPlan, budget: Budget): number {
  return (
    (plan.timedFigures ?? plan.figures) * budget.seconds +
    plan.warmups * budget.warmupSeconds +
    (plan.bounded?.(budget) ?? 0) +
    plan.setupSeconds
  );
}

/**
 * The plan of a run of `scenarios` (SCENARIOS, or those `only` names) at `budget`: each
 * scenario's seconds and the total with the stack's start and stop; `missing` names the scenarios
 * that have no plan (plan.spec.ts fails on them).
 */
export function runPlan(
  budget: Budget,
  only?: ReadonlySet<number>,
  scenarios: ReadonlyArray<{ name: string }> = SCENARIOS,
): { scenarios: PlannedScenario[]; totalSeconds: number; missing: string[] } {
  const planned: PlannedScenario[] = [];
  const missing: string[] = [];
  scenarios.forEach((scenario, index) => {
    const id = index + 1;
    if (only && !only.has(id)) return;
    const plan = PLANS[scenario.name];
    if (!plan) {
      missing.push(`${id} ${scenario.name}`);
      return;
    }
    planned.push({
      id,
      name: scenario.name,
      figures: plan.figures,
      seconds: scenarioSeconds(plan, budget),
    });
  });
  const totalSeconds =
    Math.round(planned.reduce((sum, s) => sum + s.seconds, STACK_SECONDS) * 10) / 10;
  return { scenarios: planned, totalSeconds, missing };
}
