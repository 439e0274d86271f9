import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { waitFor } from '@itp/testing/wait-for';
import type { KvStore } from './kv-store.js';

/** Waits until `read()` gives null, i.e. `key` has expired (3 s: a deadline, not a speed claim). */
async function untilExpired(key: string, read: () => Promise<string | null>): Promise<void> {
  await waitFor(async () => (await read()) === null, {
    what: `key '${key}' to expire`,
    timeoutMs: 3000,
  });
}

/**
 * The behaviour every KvStore adapter must show. Each test gets a fresh store from `factory`
 * (an empty namespace) and closes it afterwards. Run it from a spec file:
 * `kvStoreContract('redis', async () => new RedisKvStore({ url, keyPrefix: uniquePrefix() }))`.
 */
export function kvStoreContract(name: string, factory: () => Promise<KvStore>): void {
  describe(`KvStore contract: ${name}`, () => {
    let store: KvStore;

    beforeEach(async () => {
      store = await factory();
    });

    afterEach(async () => {
      await store.close();
    });

    describe('get / set / del', () => {
      it('returns null for a missing key and the stored value after set', async () => {
        expect(await store.get('missing')).toBeNull();
        expect(await store.set('k', 'v1')).toBe(true);
        expect(await store.get('k')).toBe('v1');
        expect(await store.set('k', 'v2')).toBe(true);
        expect(await store.get('k')).toBe('v2');
      });

      it('keeps empty strings, unicode and JSON values and keys exactly', async () => {
        await store.set('empty', '');
        expect(await store.get('empty')).toBe('');
        const json = JSON.stringify({ name: 'Dëmo ユーザー', n: 1 });
        await store.set('req:https://example.com/?requestId=1', json);
        expect(await store.get('req:https://example.com/?requestId=1')).toBe(json);
      });

      it('del reports whether a key was removed', async () => {
        await store.set('k', 'v');
        expect(await store.del('k')).toBe(true);
        expect(await store.get('k')).toBeNull();
        expect(await store.del('k')).toBe(false);
      });

      it('onlyIfAbsent sets a missing key and leaves an existing one alone', async () => {
        expect(await store.set('nx', 'first', { onlyIfAbsent: true })).toBe(true);
        expect(await store.set('nx', 'second', { onlyIfAbsent: true })).toBe(false);
        expect(await store.get('nx')).toBe('first');
      });

      it('onlyIfAbsent lets exactly one of 20 concurrent writers win', async () => {
        const wins = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            store.set('lock', `owner-${i}`, { onlyIfAbsent: true, ttlMs: 10_000 }),
          ),
        );
        expect(wins.filter(Boolean)).toHaveLength(1);
        expect(await store.get('lock')).toBe(`owner-${wins.indexOf(true)}`);
      });
    });

    describe('time to live', () => {
      it('ttlMs is null for a missing key and for a key without expiry', async () => {
        expect(await store.ttlMs('missing')).toBeNull();
        await store.set('forever', 'v');
        expect(await store.ttlMs('forever')).toBeNull();
      });

      it('reports the remaining time to live of a key set with ttlMs', async () => {
        await store.set('k', 'v', { ttlMs: 60_000 });
        const ttl = await store.ttlMs('k');
        expect(ttl).not.toBeNull();
        expect(ttl).toBeGreaterThan(0);
        expect(ttl).toBeLessThanOrEqual(60_000);
      });

      it('a key set with a short ttlMs expires', async () => {
        await store.set('short', 'v', { ttlMs: 100 });
        await untilExpired('short', () => store.get('short'));
        expect(await store.ttlMs('short')).toBeNull();
        expect(await store.del('short')).toBe(false);
      });

      it('an expired key counts as absent for onlyIfAbsent', async () => {
        await store.set('nx', 'old', { ttlMs: 50 });
        await untilExpired('nx', () => store.get('nx'));
        expect(await store.set('nx', 'new', { onlyIfAbsent: true })).toBe(true);
        expect(await store.get('nx')).toBe('new');
      });

      it('a plain set replaces the value and removes the previous expiry', async () => {
        await store.set('k', 'v1', { ttlMs: 60_000 });
        await store.set('k', 'v2');
        expect(await store.ttlMs('k')).toBeNull();
      });

      it('rejects a ttlMs that is not above zero', async () => {
        await expect(store.set('k', 'v', { ttlMs: 0 })).rejects.toThrow(RangeError);
        await expect(store.set('k', 'v', { ttlMs: -5 })).rejects.toThrow(RangeError);
        await expect(store.incr('n', { ttlMs: Number.NaN })).rejects.toThrow(RangeError);
        expect(await store.get('k')).toBeNull();
        expect(await store.get('n')).toBeNull();
      });
    });

    describe('getDel (consume once)', () => {
      it('returns the value once and removes it', async () => {
        await store.set('once', 'secret-ish');
        expect(await store.getDel('once')).toBe('secret-ish');
        expect(await store.getDel('once')).toBeNull();
        expect(await store.get('once')).toBeNull();
      });

      it('returns null for a missing or expired key', async () => {
        expect(await store.getDel('missing')).toBeNull();
        await store.set('short', 'v', { ttlMs: 50 });
        await untilExpired('short', () => store.getDel('short'));
      });

      it('hands the value to exactly one of 20 concurrent callers', async () => {
        await store.set('temp-key', 'payload', { ttlMs: 60_000 });
        const results = await Promise.all(
          Array.from({ length: 20 }, () => store.getDel('temp-key')),
        );
        expect(results.filter((r) => r !== null)).toEqual(['payload']);
      });
    });

    describe('compareAndSwap', () => {
      it('replaces the value when it equals the expected one', async () => {
        await store.set('state', 'pending');
        expect(await store.compareAndSwap('state', 'pending', 'approved')).toBe(true);
        expect(await store.get('state')).toBe('approved');
      });

      it('leaves the value alone when it differs, and fails for a missing key', async () => {
        await store.set('state', 'approved');
        expect(await store.compareAndSwap('state', 'pending', 'cancelled')).toBe(false);
        expect(await store.get('state')).toBe('approved');
        expect(await store.compareAndSwap('missing', 'pending', 'x')).toBe(false);
        expect(await store.get('missing')).toBeNull();
      });

      it('deletes the key when next is null', async () => {
        await store.set('state', 'pending', { ttlMs: 60_000 });
        expect(await store.compareAndSwap('state', 'other', null)).toBe(false);
        expect(await store.get('state')).toBe('pending');
        expect(await store.compareAndSwap('state', 'pending', null)).toBe(true);
        expect(await store.get('state')).toBeNull();
      });

      it('keeps the remaining time to live when no ttlMs is given', async () => {
        await store.set('state', 'pending', { ttlMs: 60_000 });
        expect(await store.compareAndSwap('state', 'pending', 'approved')).toBe(true);
        const ttl = await store.ttlMs('state');
        expect(ttl).not.toBeNull();
        expect(ttl).toBeGreaterThan(0);
        expect(ttl).toBeLessThanOrEqual(60_000);
      });

      it('keeps "no expiry" when no ttlMs is given', async () => {
        await store.set('state', 'a');
        expect(await store.compareAndSwap('state', 'a', 'b')).toBe(true);
        expect(await store.ttlMs('state')).toBeNull();
      });

      it('sets a new time to live when ttlMs is given', async () => {
        await store.set('state', 'a', { ttlMs: 60_000 });
        expect(await store.compareAndSwap('state', 'a', 'b', { ttlMs: 150 })).toBe(true);
        const ttl = await store.ttlMs('state');
        // null means it already expired, which also shows the new, short TTL took effect.
        expect(ttl === null || ttl <= 150).toBe(true);
        await untilExpired('state', () => store.get('state'));
      });

      it('does not match an expired key', async () => {
        await store.set('state', 'pending', { ttlMs: 50 });
        await untilExpired('state', () => store.get('state'));
        expect(await store.compareAndSwap('state', 'pending', 'approved')).toBe(false);
        expect(await store.get('state')).toBeNull();
      });

      it('lets exactly one of 20 concurrent swaps from the same value win', async () => {
        await store.set('state', 'pending');
        const wins = await Promise.all(
          Array.from({ length: 20 }, (_, i) => store.compareAndSwap('state', 'pending', `by-${i}`)),
        );
        expect(wins.filter(Boolean)).toHaveLength(1);
        expect(await store.get('state')).toBe(`by-${wins.indexOf(true)}`);
      });
    });

    describe('incr', () => {
      it('starts a missing counter at 1 and counts up', async () => {
        expect(await store.incr('n')).toBe(1);
        expect(await store.incr('n')).toBe(2);
        expect(await store.get('n')).toBe('2');
        expect(await store.ttlMs('n')).toBeNull();
      });

      it('counts every one of 20 concurrent increments exactly once', async () => {
        const values = await Promise.all(Array.from({ length: 20 }, () => store.incr('n')));
        expect([...values].sort((a, b) => a - b)).toEqual(
          Array.from({ length: 20 }, (_, i) => i + 1),
        );
        expect(await store.get('n')).toBe('20');
      });

      it('applies ttlMs only when the counter is created', async () => {
        expect(await store.incr('n', { ttlMs: 10_000 })).toBe(1);
        const first = await store.ttlMs('n');
        expect(first).not.toBeNull();
        expect(first).toBeLessThanOrEqual(10_000);
        expect(await store.incr('n', { ttlMs: 600_000 })).toBe(2);
        expect(await store.ttlMs('n')).toBeLessThanOrEqual(10_000);
        expect(await store.incr('n')).toBe(3);
        expect(await store.ttlMs('n')).not.toBeNull();
      });

      it('does not add an expiry to an existing counter without one', async () => {
        await store.incr('n');
        await store.incr('n', { ttlMs: 10_000 });
        expect(await store.ttlMs('n')).toBeNull();
      });

      it('starts again at 1 after the counter expired (a fixed rate-limit window)', async () => {
        expect(await store.incr('window', { ttlMs: 100 })).toBe(1);
        expect(await store.incr('window', { ttlMs: 100 })).toBe(2);
        await untilExpired('window', () => store.get('window'));
        expect(await store.incr('window', { ttlMs: 60_000 })).toBe(1);
      });

      it('increments a numeric string set before, and rejects a value that is no integer', async () => {
        await store.set('n', '41');
        expect(await store.incr('n')).toBe(42);
        await store.set('text', 'abc');
        await expect(store.incr('text')).rejects.toThrow(/not an integer/);
        expect(await store.get('text')).toBe('abc');
      });
    });

    describe('lifecycle', () => {
      it('ping resolves while the store is open', async () => {
        await expect(store.ping()).resolves.toBeUndefined();
      });

      it('keeps the keys of separate stores apart', async () => {
        const other = await factory();
        try {
          await store.set('shared-name', 'mine');
          expect(await other.get('shared-name')).toBeNull();
          await other.set('shared-name', 'theirs');
          expect(await store.get('shared-name')).toBe('mine');
        } finally {
          await other.close();
        }
      });

      it('rejects calls after close, and close twice is harmless', async () => {
        const other = await factory();
        await other.close();
        await other.close();
        await expect(other.get('k')).rejects.toThrow();
        await expect(other.ping()).rejects.toThrow();
      });
    });
  });
}
