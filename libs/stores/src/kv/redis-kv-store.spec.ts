import { afterEach, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import { freePort, testRedisUrl, uniquePrefix } from '@itp/testing';
import { RedisKvStore, reconnectDelayMs } from './redis-kv-store.js';

describe('RedisKvStore', () => {
  const opened: { close(): Promise<unknown> }[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((c) => c.close()));
  });

  function open(keyPrefix: string, url = testRedisUrl()): RedisKvStore {
    const store = new RedisKvStore({ url, keyPrefix });
    opened.push(store);
    return store;
  }

  it('namespaces every key, scripts included, under the key prefix', async () => {
    const prefix = uniquePrefix('kv-prefix');
    const store = open(prefix);
    const raw = new Redis(testRedisUrl());
    opened.push({ close: () => raw.quit() });

    await store.set('plain', 'v', { ttlMs: 60_000 });
    await store.incr('counter', { ttlMs: 60_000 });
    await store.set('cas', 'a');
    await store.compareAndSwap('cas', 'a', 'b');

    expect(await raw.get(`${prefix}plain`)).toBe('v');
    expect(await raw.get(`${prefix}counter`)).toBe('1');
    expect(await raw.pttl(`${prefix}counter`)).toBeGreaterThan(0);
    expect(await raw.get(`${prefix}cas`)).toBe('b');
    expect(await raw.exists('plain', 'counter', 'cas')).toBe(0);
  });

  it('ping rejects, and calls fail instead of hanging, when Redis does not answer', async () => {
    const port = await freePort();
    const store = new RedisKvStore({ url: `redis://127.0.0.1:${port}`, commandTimeoutMs: 1000 });
    opened.push(store);
    await expect(store.ping()).rejects.toThrow();
    await expect(store.get('k')).rejects.toThrow();
    await store.close();
    await expect(store.get('k')).rejects.toThrow('Connection is closed.');
  });

  it('backs off between reconnects up to a cap of 2 s', () => {
    for (let attempt = 1; attempt < 50; attempt++) {
      const delay = reconnectDelayMs(attempt);
      expect(delay).toBeGreaterThanOrEqual(50);
      expect(delay).toBeLessThanOrEqual(2000);
    }
    expect(reconnectDelayMs(1)).toBeLessThanOrEqual(100);
  });
});
