import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { TooManyRequestsError } from '@itp/errors';
import { MemoryKvStore } from '@itp/stores';
import { FailureBackoff } from './failure-backoff.js';

describe('FailureBackoff', () => {
  let kv: MemoryKvStore;
  beforeEach(() => {
    kv = new MemoryKvStore();
  });
  afterEach(() => kv.close());

  const backoff = () =>
    new FailureBackoff(kv, { name: 'id', freeFailures: 2, windowMs: 60_000, maxDelayMs: 5_000 });

  it('holds grow 1, 2, 4 s after the free failures and stop at the maximum', () => {
    const b = backoff();
    expect([1, 2, 3, 4, 5, 6, 7, 100, 5000].map((n) => b.delayMsAfter(n))).toEqual([
      0, 0, 1000, 2000, 4000, 5000, 5000, 5000, 5000,
    ]);
  });

  it('refuses during a hold with Retry-After = the remaining hold; reset lifts it', async () => {
    const b = backoff();
    await b.recordFailure('alice');
    await b.recordFailure('alice');
    await expect(b.check('alice')).resolves.toBeUndefined();
    await b.recordFailure('alice');
    await b.recordFailure('alice');
    const err = await b.check('alice').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TooManyRequestsError);
    expect((err as TooManyRequestsError).retryAfterSeconds).toBe(2);
    await expect(b.check('bob')).resolves.toBeUndefined();
    await b.reset('alice');
    await expect(b.check('alice')).resolves.toBeUndefined();
    await b.recordFailure('alice');
    await expect(b.check('alice')).resolves.toBeUndefined();
  });
});
