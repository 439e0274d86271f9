import { describe, expect, it } from '@jest/globals';
import type { SuiteFigures } from './run-suite.js';
import { violations } from './verdict.js';

const clean = (): SuiteFigures => ({
  profile: 'quick',
  startedAt: '2026-01-01T00:00:00.000Z',
  seconds: 1,
  stackStartSeconds: 1,
  fuzz: {
    seed: 1,
    inputs: 10,
    perTarget: { x: 10 },
    statuses: { '200': 10 },
    verdicts: {
      ok: 10,
      'no-answer': 0,
      '5xx': 0,
      'undocumented-shape': 0,
      'undocumented-code': 0,
      'internal-error': 0,
    },
    problems: [],
    seconds: 1,
  },
  readyAfterFuzz: true,
  races: [{ name: 'r', expected: '1', observed: '1', passed: true }],
  regressions: [{ name: 'c', expected: '400', observed: '400', passed: true }],
  redisRestore: {
    outcomes: [
      { name: 'VP login', expected: '200; again 401', observed: '200; 401', passed: true },
    ],
    snapshotKeys: 10,
    snapshotAgeMs: 500,
    restoreMs: 300,
    servingAgainMs: 100,
    replays: 1,
    accepted: 0,
  },
  faults: [
    {
      kind: 'redis-stop',
      downMs: 1,
      msTo503: 1,
      msToRecovery: 1,
      loginAfter: 200,
      outcomes: {
        success: 1,
        unavailable: 1,
        refused: 0,
        'upstream-down': 0,
        unclear: 0,
        'no-answer': 0,
      },
      unclear: [],
      refused: [],
    },
  ],
  loadRequests: 2,
  recordsBefore: { 'public.wallet_keys': 1 },
  recordsAfter: { 'public.wallet_keys': 2 },
  lost: { wallets: 0, dids: 0, transactions: 0, checked: 3 },
  settle: {
    records: 1,
    open: 0,
    unknownToChain: 0,
    secondsToFinal: 1,
    mismatches: [],
    byStatus: { mined: 1 },
  },
  readyAtEnd: true,
  crashes: { gateway: [] },
  hygiene: {
    secretsKnown: 1,
    logs: { scanned: 1, hits: [] },
    database: { scanned: 1, hits: [] },
    redis: { scanned: 1, hits: [] },
  },
});

describe('violations', () => {
  it('is empty when every rule held', () => {
    expect(violations(clean())).toEqual([]);
  });

  it('names each broken rule', () => {
    const f = clean();
    f.fuzz.verdicts['5xx'] = 2;
    f.races[0]!.passed = false;
    f.faults[0]!.loginAfter = 429;
    f.faults[0]!.msTo503 = null;
    f.recordsAfter['public.wallet_keys'] = 0;
    f.settle.mismatches = ['0xab mined (chain: no receipt)'];
    f.hygiene.logs.hits = [{ kind: 'password', where: 'auth-service.log:3', excerpt: '…' }];
    f.crashes.gateway = ['code 1'];
    f.redisRestore.outcomes[0]!.passed = false;
    const out = violations(f).join('\n');
    for (const word of [
      '5xx',
      'race',
      'login afterwards answered 429',
      'no clear 503',
      'rows before',
      'matching the chain',
      'secret scan',
      'gateway exited',
      'Redis restored from a snapshot, "VP login"',
    ]) {
      expect(out).toContain(word);
    }
  });
});
