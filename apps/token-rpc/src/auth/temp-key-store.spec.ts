import { afterAll, describe, expect, it } from '@jest/globals';
import { InternalError } from '@itp/errors';
import { RedisKvStore } from '@itp/stores';
import { freePort, testRedisUrl, uniquePrefix } from '@itp/testing';
import { TempKeyStore } from './temp-key-store.js';

const kv = new RedisKvStore({ url: testRedisUrl(), keyPrefix: uniquePrefix('tempkeys') });
afterAll(() => kv.close());

const binding = {
  address: '0x1000000000000000000000000000000000000001',
  keyType: 'transfer' as const,
};

describe('TempKeyStore (Redis)', () => {
  it('issues 256-bit tempKeys bound to an address and keyType, with the TTL', async () => {
    const store = new TempKeyStore(kv, 300_000);
    const tempKey = await store.issue(binding);
    expect(tempKey).toMatch(/^[0-9a-f]{64}$/);
    expect(await store.issue(binding)).not.toBe(tempKey);
    const ttl = await kv.ttlMs(`tempkey:${tempKey}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(300_000);
  });

  it('peeks without consuming; consume hands the binding out once', async () => {
    const store = new TempKeyStore(kv, 300_000);
    const tempKey = await store.issue(binding);
    expect(await store.peek(tempKey)).toEqual(binding);
    expect(await store.peek(tempKey)).toEqual(binding);
    expect(await store.consume(tempKey)).toEqual(binding);
    expect(await store.consume(tempKey)).toBeNull();
    expect(await store.peek(tempKey)).toBeNull();
  });

  it('gives the binding to exactly one of 20 concurrent consumers', async () => {
    const store = new TempKeyStore(kv, 300_000);
    const tempKey = await store.issue(binding);
    const results = await Promise.all(Array.from({ length: 20 }, () => store.consume(tempKey)));
    expect(results.filter((r) => r !== null)).toHaveLength(1);
  });

  it('forgets an expired tempKey', async () => {
    const store = new TempKeyStore(kv, 50);
    const tempKey = await store.issue(binding);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await store.consume(tempKey)).toBeNull();
  });

  it('reports an unreachable Redis as an internal error (500), not a crash', async () => {
    const dead = new RedisKvStore({
      url: `redis://127.0.0.1:${await freePort()}`,
      connectTimeoutMs: 200,
      commandTimeoutMs: 300,
    });
    try {
      await expect(new TempKeyStore(dead, 1000).issue(binding)).rejects.toThrow(InternalError);
    } finally {
      await dead.close();
    }
  });
});
