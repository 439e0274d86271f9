import { describe, expect, it } from '@jest/globals';
import { TooManyRequestsError } from '@itp/errors';
import { testRedisUrl, uniquePrefix } from '@itp/testing';
import type { KvStore } from '../kv/kv-store.js';
import { MemoryKvStore } from '../kv/memory-kv-store.js';
import { RedisKvStore } from '../kv/redis-kv-store.js';
import { RateLimitedError, RateLimiter, type RateLimit } from './rate-limiter.js';

const limit: RateLimit = { name: 'wallet', what: 'wallet calls', max: 3, windowMs: 60_000 };

async function outcomes(limiter: RateLimiter, client: string, calls: number, l = limit) {
  return Promise.all(
    Array.from({ length: calls }, () =>
      limiter.take(l, client).then(
        () => 'ok',
        (err: unknown) => err,
      ),
    ),
  );
}

describe('RateLimiter', () => {
  it('counts an IPv6 /64 as one client (one subscriber), another /64 apart', async () => {
    const limiter = new RateLimiter(new MemoryKvStore());
    const one = { ...limit, max: 1 };
    await limiter.take(one, '2001:db8:1:2::1');
    await expect(limiter.take(one, '2001:db8:1:2:ffff::9')).rejects.toBeInstanceOf(
      RateLimitedError,
    );
    await expect(limiter.take(one, '2001:db8:1:3::1')).resolves.toBeUndefined();
  });

  it('lets `max` calls through per client, then 429 saying when to retry', async () => {
    const limiter = new RateLimiter(new MemoryKvStore());
    const results = await outcomes(limiter, '203.0.113.1', 5);
    expect(results.filter((r) => r === 'ok')).toHaveLength(3);
    const refused = results.filter((r): r is RateLimitedError => r instanceof RateLimitedError);
    expect(refused).toHaveLength(2);
    expect(refused[0]?.code).toBe('429');
    expect(refused[0]).toBeInstanceOf(TooManyRequestsError);
    expect(refused[0]?.message).toMatch(
      /^too many wallet calls from this client \(at most 3 per minute\): retry in \d+ s$/,
    );
    expect(refused[0]?.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(refused[0]?.retryAfterSeconds).toBeLessThanOrEqual(60);
    // Another client has its own counter.
    expect(await outcomes(limiter, '203.0.113.2', 3)).toEqual(['ok', 'ok', 'ok']);
  });

  it('max 0 turns the limit off (nothing is counted)', async () => {
    const kv = new MemoryKvStore();
    const limiter = new RateLimiter(kv);
    const off = { ...limit, max: 0 };
    expect(await outcomes(limiter, 'c', 10, off)).toEqual(Array(10).fill('ok'));
    expect(await kv.get('ratelimit:wallet:c')).toBeNull();
  });

  it('a failing counter store is an internal error, not an unlimited call', async () => {
    const broken = {
      incr: () => Promise.reject(new Error('ECONNREFUSED')),
    } as unknown as KvStore;
    await expect(new RateLimiter(broken).take(limit, 'c')).rejects.toMatchObject({
      code: '500',
      message: 'the rate-limit store (Redis) is unavailable',
    });
  });

  it('on real Redis, 50 calls at once from one client never get more than `max` through', async () => {
    const kv = new RedisKvStore({ url: testRedisUrl(), keyPrefix: uniquePrefix('rate-limiter') });
    try {
      const limiter = new RateLimiter(kv);
      const results = await outcomes(limiter, '203.0.113.9', 50, { ...limit, max: 10 });
      expect(results.filter((r) => r === 'ok')).toHaveLength(10);
      expect(results.filter((r) => r instanceof RateLimitedError)).toHaveLength(40);
      expect(await kv.ttlMs('ratelimit:wallet:203.0.113.9')).toBeLessThanOrEqual(60_000);
    } finally {
      await kv.close();
    }
  });
});
