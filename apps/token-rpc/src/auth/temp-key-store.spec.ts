import { afterAll, describe, expect, it } from '@jest/globals';
import { ServiceUnavailableError } from '@itp/errors';
import { RedisKvStore } from '@itp/stores';
import { waitFor, freePort, testRedisUrl, uniquePrefix } from '@itp/testing';
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

  it('peeks without consuming; the first claim uses the tempKey, signData then sees it used', async () => {
    const store = new TempKeyStore(kv, 300_000);
    const tempKey = await store.issue(binding);
    expect(await store.peek(tempKey)).toEqual(binding);
    expect(await store.peek(tempKey)).toEqual(binding);
    const claim = await store.claim(tempKey, 'f1');
    expect(claim).toMatchObject({ state: 'claimed', binding });
    expect(await store.peek(tempKey)).toBeNull();
    expect(await store.claim(tempKey, 'f1')).toEqual({ state: 'inProgress' });
    expect(await store.claim(tempKey, 'f2')).toEqual({ state: 'usedByOther' });
  });

  it('keeps the answer of the first request for identical retries only, for retryTtlMs', async () => {
    const store = new TempKeyStore(kv, 300_000, { retryTtlMs: 60_000 });
    const tempKey = await store.issue(binding);
    const claim = await store.claim(tempKey, 'f1');
    if (claim.state !== 'claimed') throw new Error(`not claimed: ${claim.state}`);
    const outcome = { transactionId: `0x${'ab'.repeat(32)}`, resultData: `0x${'ab'.repeat(32)}` };
    expect(await store.answer(tempKey, claim.marker, { outcome })).toBe(true);
    expect(await store.claim(tempKey, 'f1')).toEqual({ state: 'answered', outcome });
    expect(await store.claim(tempKey, 'f2')).toEqual({ state: 'usedByOther' });
    const ttl = await kv.ttlMs(`tempkey:${tempKey}`);
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
    // Only the claim it answers: a second answer finds the claim gone.
    expect(await store.answer(tempKey, claim.marker, { outcome })).toBe(false);
    const failed = await store.issue(binding);
    const second = await store.claim(failed, 'f3');
    if (second.state !== 'claimed') throw new Error('not claimed');
    const failure = { code: '402', message: 'cannot pay', expose: true };
    await store.answer(failed, second.marker, { failure });
    expect(await store.claim(failed, 'f3')).toEqual({ state: 'answered', failure });
  });

  it('puts the answer of the request the transaction log names in place of a later claim', async () => {
    // Redis went back in time: a second request claimed the tempKey again; the log says another
    // request (fingerprint f1) used it. Its answer replaces the claim: f1 retries get it, f2 is refused.
    const store = new TempKeyStore(kv, 300_000, { retryTtlMs: 60_000 });
    const tempKey = await store.issue(binding);
    const claim = await store.claim(tempKey, 'f2');
    if (claim.state !== 'claimed') throw new Error('expected a claim');
    const outcome = { transactionId: `0x${'ab'.repeat(32)}`, resultData: `0x${'ab'.repeat(32)}` };
    expect(await store.restoreAnswer(tempKey, claim.marker, { fingerprint: 'f1', outcome })).toBe(
      true,
    );
    expect(await store.claim(tempKey, 'f1')).toEqual({ state: 'answered', outcome });
    expect(await store.claim(tempKey, 'f2')).toEqual({ state: 'usedByOther' });
    const ttl = await kv.ttlMs(`tempkey:${tempKey}`);
    expect(ttl).toBeGreaterThan(50_000); // the retry TTL, not the pending claim's
    expect(ttl).toBeLessThanOrEqual(60_000);
    // Only in place of that claim: a marker that changed meanwhile is left alone.
    expect(await store.restoreAnswer(tempKey, claim.marker, { fingerprint: 'f3', outcome })).toBe(
      false,
    );
  });

  it('lets exactly one of 20 concurrent claims with one tempKey through', async () => {
    const store = new TempKeyStore(kv, 300_000);
    const tempKey = await store.issue(binding);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        store.claim(tempKey, i % 2 === 0 ? 'same' : `other${i}`),
      ),
    );
    expect(results.filter((r) => r.state === 'claimed')).toHaveLength(1);
  });

  it('forgets an expired tempKey; stores no hashKey, signature or fingerprint input in clear', async () => {
    const store = new TempKeyStore(kv, 50);
    const tempKey = await store.issue(binding);
    // Redis's own clock runs the TTL: wait until it has forgotten the key (only peeking at it).
    await waitFor(async () => (await store.peek(tempKey)) === null, {
      what: 'the tempKey expired',
      timeoutMs: 5_000,
    });
    expect(await store.claim(tempKey, 'f')).toEqual({ state: 'missing' });
    const live = await new TempKeyStore(kv, 10_000).issue(binding);
    await store.claim(live, 'a'.repeat(64));
    expect(JSON.parse((await kv.get(`tempkey:${live}`)) as string)).toEqual({
      used: true,
      fingerprint: 'a'.repeat(64),
      state: 'pending',
    });
  });

  it('reports an unreachable Redis as "503" Redis unavailable, not a crash or a 500', async () => {
    const dead = new RedisKvStore({
      url: `redis://127.0.0.1:${await freePort()}`,
      connectTimeoutMs: 200,
      commandTimeoutMs: 300,
    });
    try {
      const err = await new TempKeyStore(dead, 1000).issue(binding).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ServiceUnavailableError);
      expect((err as ServiceUnavailableError).code).toBe('503');
      expect((err as Error).message).toMatch(/^Redis unavailable: /);
    } finally {
      await dead.close();
    }
  });
});
