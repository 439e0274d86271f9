import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { closeAgent } from './client/http.js';
import { PROFILES } from './profiles.js';
import { runSuite, type SuiteFigures } from './run-suite.js';

// The quick profile of the resilience suite (docs/reliability.md): its own private Redis,
// PostgreSQL and anvil and the five apps as processes, ~5,000 fuzz inputs, the five races, one
// short fault of each kind under load, and the secret scan. Rules only, never times.

let figures: SuiteFigures;

beforeAll(async () => {
  figures = await runSuite(PROFILES.quick);
}, 240_000);

afterAll(async () => {
  await closeAgent();
});

describe('resilience (quick profile)', () => {
  it('fuzzing: every input answered, none 5xx or -32603 / "500", every error in its documented shape', () => {
    expect(figures.fuzz.inputs).toBeGreaterThanOrEqual(5_000);
    expect(Object.keys(figures.fuzz.perTarget).length).toBeGreaterThan(40);
    expect(figures.fuzz.problems).toEqual([]);
    expect(figures.fuzz.verdicts.ok).toBe(figures.fuzz.inputs);
    expect(figures.readyAfterFuzz).toBe(true);
  });

  it('no process exited on its own', () => {
    // By app, with each crash's last log message: the CI log says who crashed and why.
    expect(figures.crashes).toEqual(
      Object.fromEntries(Object.keys(figures.crashes).map((app) => [app, []])),
    );
  });

  it('the second review findings (Redis restarts empty, a leases held across a Redis stop, control characters in ids, deep JSON inside real credentials) all hold', () => {
    expect(figures.regressions).toHaveLength(4);
    for (const check of figures.regressions)
      expect({ check: check.name, observed: check.observed, passed: check.passed }).toEqual({
        check: check.name,
        observed: check.observed,
        passed: true,
      });
  });

  it('Redis restored from a snapshot taken before one use of each one-time thing: every replay refused, the transfer retry answers its original TransactionID, the current refresh token works', () => {
    expect(figures.redisRestore.outcomes).toHaveLength(9);
    for (const rule of figures.redisRestore.outcomes)
      expect({ rule: rule.name, observed: rule.observed, passed: rule.passed }).toEqual({
        rule: rule.name,
        observed: rule.observed,
        passed: true,
      });
    expect(figures.redisRestore.accepted).toBe(0);
  });

  it('races: exactly one effect each', () => {
    expect(figures.races).toHaveLength(10);
    for (const race of figures.races)
      expect({ race: race.name, observed: race.observed, passed: race.passed }).toEqual({
        race: race.name,
        observed: race.observed,
        passed: true,
      });
  });

  it('faults: clear 503s, recovery, no lockout, no request without an answer, nothing unclear', () => {
    expect(figures.faults.map((f) => f.kind)).toEqual(PROFILES.quick.faults.map((f) => f.kind));
    for (const fault of figures.faults) {
      expect({
        kind: fault.kind,
        unclear: fault.unclear,
        noAnswer: fault.outcomes['no-answer'],
      }).toEqual({
        kind: fault.kind,
        unclear: [],
        noAnswer: 0,
      });
      // Each fault by name, so that a CI log says which one failed and how.
      expect({
        kind: fault.kind,
        recovered: fault.msToRecovery !== null,
        loginAfter: fault.loginAfter,
        seen503: fault.kind.startsWith('sigterm') || fault.msTo503 !== null,
        outcomes: fault.outcomes,
      }).toEqual({
        kind: fault.kind,
        recovered: true,
        loginAfter: 200,
        seen503: true,
        outcomes: fault.outcomes,
      });
    }
    expect(figures.readyAtEnd).toBe(true);
  });

  it('no acknowledged write lost; every transaction record final and matching the chain', () => {
    expect(figures.lost.checked).toBeGreaterThan(0);
    expect(figures.lost).toEqual({
      wallets: 0,
      dids: 0,
      transactions: 0,
      checked: figures.lost.checked,
    });
    for (const [table, before] of Object.entries(figures.recordsBefore)) {
      expect(figures.recordsAfter[table]).toBeGreaterThanOrEqual(before);
    }
    expect(figures.settle.records).toBeGreaterThan(0);
    expect(figures.settle.secondsToFinal).not.toBeNull();
    expect(figures.settle.mismatches).toEqual([]);
  });

  it('secret hygiene: no secret in any log line, table row or Redis key', () => {
    expect(figures.hygiene.secretsKnown).toBeGreaterThan(50);
    expect(figures.hygiene.logs.scanned).toBeGreaterThan(1_000);
    expect(figures.hygiene.database.scanned).toBeGreaterThan(0);
    expect(figures.hygiene.redis.scanned).toBeGreaterThan(0);
    expect([
      ...figures.hygiene.logs.hits,
      ...figures.hygiene.database.hits,
      ...figures.hygiene.redis.hits,
    ]).toEqual([]);
  });
});
