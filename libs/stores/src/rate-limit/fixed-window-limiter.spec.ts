import { afterEach, describe, expect, it } from '@jest/globals';
import { testRedisUrl, uniquePrefix } from '@itp/testing';
import { MemoryKvStore } from '../kv/memory-kv-store.js';
import { RedisKvStore } from '../kv/redis-kv-store.js';
import { FixedWindowLimiter, type FixedWindow } from './fixed-window-limiter.js';

const window: FixedWindow = { max: 3, windowMs: 60_000 };

describe('FixedWindowLimiter', () => {
  const opened: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((kv) => kv.close()));
  });

  function memory(now: () => number = Date.now): MemoryKvStore {
    const kv = new MemoryKvStore({ now });
    opened.push(kv);
    return kv;
  }

  function redis(keyPrefix: string): RedisKvStore {
    const kv = new RedisKvStore({ url: testRedisUrl(), keyPrefix });
    opened.push(kv);
    return kv;
  }

  it('lets `max` hits through, then refuses with the seconds left in the window', async () => {
    let now = 1_000_000;
    const limiter = new FixedWindowLimiter(memory(() => now));
    for (let i = 0; i < 3; i++) expect(await limiter.hit('k', window)).toBeNull();
    now += 20_500;
    expect(await limiter.hit('k', window)).toEqual({ count: 4, retryAfterSeconds: 40 });
    // Another key has its own counter.
    expect(await limiter.hit('other', window)).toBeNull();
  });

  it('starts a new window once the first hit is `windowMs` old', async () => {
    let now = 1_000_000;
    const limiter = new FixedWindowLimiter(memory(() => now));
    for (let i = 0; i < 4; i++) await limiter.hit('k', window);
    expect(await limiter.count('k')).toBe(4);
    now += 60_000;
    expect(await limiter.count('k')).toBe(0);
    expect(await limiter.hit('k', window)).toBeNull();
    expect(await limiter.count('k')).toBe(1);
  });

  it('check counts nothing and refuses once `max` hits were added; reset clears', async () => {
    const limiter = new FixedWindowLimiter(memory());
    expect(await limiter.check('k', window)).toBeNull();
    expect(await limiter.count('k')).toBe(0);
    expect(await limiter.add('k', window.windowMs)).toBe(1);
    expect(await limiter.add('k', window.windowMs)).toBe(2);
    expect(await limiter.check('k', window)).toBeNull();
    await limiter.add('k', window.windowMs);
    expect(await limiter.check('k', window)).toEqual({ count: 3, retryAfterSeconds: 60 });
    expect(await limiter.count('k')).toBe(3);
    await limiter.reset('k');
    expect(await limiter.count('k')).toBe(0);
    expect(await limiter.check('k', window)).toBeNull();
  });

  it('on real Redis, exactly `max` of 60 concurrent hits from two replicas pass', async () => {
    // Two connections with the same prefix: two replicas sharing one Redis.
    const prefix = uniquePrefix('fixed-window');
    const replicas = [new FixedWindowLimiter(redis(prefix)), new FixedWindowLimiter(redis(prefix))];
    const limit: FixedWindow = { max: 17, windowMs: 30_000 };
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) => replicas[i % 2]!.hit('client', limit)),
    );
    expect(results.filter((r) => r === null)).toHaveLength(17);
    const refused = results.filter((r) => r !== null);
    expect(refused).toHaveLength(43);
    // Every count from 18 to 60 was handed out once: no hit was lost or counted twice.
    expect(refused.map((r) => r.count).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 43 }, (_, i) => 18 + i),
    );
    for (const r of refused) {
      expect(r.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(r.retryAfterSeconds).toBeLessThanOrEqual(30);
    }
    expect(await replicas[0]!.count('client')).toBe(60);
  });
});
