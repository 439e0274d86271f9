import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { TooManyRequestsError } from '@itp/errors';
import { MemoryKvStore, RedisKvStore } from '@itp/stores';
import { testRedisUrl, uniquePrefix } from '@itp/testing';
import { FailureCounter } from './failure-counter.js';

describe('FailureCounter', () => {
  let kv: MemoryKvStore;
  beforeEach(() => {
    kv = new MemoryKvStore();
  });
  afterEach(() => kv.close());

  it('check/recordFailure: refuses once max failures were recorded, with Retry-After', async () => {
    const counter = new FailureCounter(kv, { name: 'ip', max: 2, windowMs: 60_000 });
    await counter.check('10.0.0.1');
    await counter.recordFailure('10.0.0.1');
    await counter.check('10.0.0.1');
    await counter.recordFailure('10.0.0.1');
    const err = await counter.check('10.0.0.1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TooManyRequestsError);
    expect((err as TooManyRequestsError).retryAfterSeconds).toBe(60);
    await expect(counter.check('10.0.0.2')).resolves.toBeUndefined();
  });

  it('take: counts every attempt atomically, even concurrent ones; reset clears', async () => {
    const counter = new FailureCounter(kv, { name: 'id', max: 3, windowMs: 60_000 });
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () => counter.take('alice')),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    await counter.reset('alice');
    await expect(counter.take('alice')).resolves.toBeUndefined();
  });

  it('keeps subjects of different counters apart and does not store them in clear', async () => {
    const a = new FailureCounter(kv, { name: 'a', max: 1, windowMs: 60_000 });
    const b = new FailureCounter(kv, { name: 'b', max: 1, windowMs: 60_000 });
    await a.recordFailure('alice@example.com');
    await expect(b.check('alice@example.com')).resolves.toBeUndefined();
    await expect(a.check('alice@example.com')).rejects.toBeInstanceOf(TooManyRequestsError);
  });

  it('take on real Redis: exactly `max` of 40 concurrent attempts pass', async () => {
    const redis = new RedisKvStore({ url: testRedisUrl(), keyPrefix: uniquePrefix('failures') });
    try {
      const counter = new FailureCounter(redis, { name: 'nonce', max: 7, windowMs: 60_000 });
      const results = await Promise.allSettled(
        Array.from({ length: 40 }, () => counter.take('10.0.0.9')),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(7);
      const refused = results.filter((r) => r.status === 'rejected');
      expect(refused).toHaveLength(33);
      for (const r of refused) expect(r.reason).toBeInstanceOf(TooManyRequestsError);
      expect(await counter.failures('10.0.0.9')).toBe(40);
    } finally {
      await redis.close();
    }
  });
});
