import type { FaultKind } from './faults/run-faults.js';

export interface Profile {
  name: 'quick' | 'full';
  fuzzInputs: number;
  fuzzConcurrency: number;
  loadWorkers: number;
  /** How long Redis stays down under held nonce leases in the review's item-1 check. */
  regressionRedisDownMs: number;
  faults: Array<{ kind: FaultKind; downMs: number }>;
}

/**
 * quick: inside `npm test` (resilience.spec.ts), ~5,000 fuzz inputs and one short fault of each
 * kind. full: `npm run resilience`, ≥ 100,000 inputs and 10 s faults; writes docs/reliability.md.
 * A paused chain is held longer than ETH_RPC_TIMEOUT_MS (3 s in the suite's stack) so that the
 * timeout, not only refused connections, is exercised.
 */
export const PROFILES: Record<Profile['name'], Profile> = {
  quick: {
    name: 'quick',
    fuzzInputs: 5_000,
    fuzzConcurrency: 16,
    loadWorkers: 4,
    regressionRedisDownMs: 4_000,
    faults: [
      { kind: 'redis-stop', downMs: 1_500 },
      { kind: 'postgres-stop', downMs: 1_500 },
      { kind: 'chain-pause', downMs: 3_500 },
      { kind: 'chain-stop', downMs: 1_500 },
      { kind: 'sigterm-token-rpc', downMs: 0 },
    ],
  },
  full: {
    name: 'full',
    fuzzInputs: 100_000,
    fuzzConcurrency: 24,
    loadWorkers: 8,
    regressionRedisDownMs: 10_000,
    faults: [
      { kind: 'redis-stop', downMs: 10_000 },
      { kind: 'postgres-stop', downMs: 10_000 },
      { kind: 'chain-pause', downMs: 10_000 },
      { kind: 'chain-stop', downMs: 10_000 },
      { kind: 'sigterm-token-rpc', downMs: 0 },
      { kind: 'sigterm-auth-service', downMs: 0 },
    ],
  },
};
