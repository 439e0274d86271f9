import { afterAll, describe, expect, it } from '@jest/globals';
import { pino } from 'pino';
import { RedisKvStore } from '@itp/stores';
import { testRedisUrl, uniquePrefix } from '@itp/testing';
import { NonceManager } from './nonce-manager.js';

/**
 * The NonceManager against a real Redis. The chain is a stand-in that behaves like a node's
 * pool: it accepts exactly the next nonce and counts it as pending. (token-rpc's concurrency
 * tests run the same against anvil.)
 */
const logger = pino({ level: 'silent' });
const kvs: RedisKvStore[] = [];
afterAll(() => Promise.all(kvs.map((kv) => kv.close())));

function redis(prefix: string): RedisKvStore {
  const kv = new RedisKvStore({ url: testRedisUrl(), keyPrefix: prefix });
  kvs.push(kv);
  return kv;
}

class FakePool {
  pending = 0;
  accepted: number[] = [];
  async accept(nonce: number): Promise<void> {
    // Part of the scenario, not a wait: a node that takes 0-3 ms, so that sends interleave.
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 3));
    if (nonce !== this.pending) throw new Error(`nonce ${nonce} refused, expected ${this.pending}`);
    this.accepted.push(nonce);
    this.pending += 1;
  }
}

const ADDRESS = '0xAb00000000000000000000000000000000000001';

describe('NonceManager (Redis)', () => {
  it('gives 30 concurrent sends distinct consecutive nonces', async () => {
    const pool = new FakePool();
    const manager = new NonceManager({
      kv: redis(uniquePrefix('nonce')),
      pendingNonce: async () => pool.pending,
      logger,
    });
    const nonces = await Promise.all(
      Array.from({ length: 30 }, () =>
        manager.withNonce(ADDRESS, async ({ nonce, confirm }) => {
          await confirm();
          await pool.accept(nonce);
          return nonce;
        }),
      ),
    );
    expect([...nonces].sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i));
  });

  it('serialises two managers (two instances) sharing one Redis', async () => {
    const pool = new FakePool();
    const prefix = uniquePrefix('nonce');
    const a = new NonceManager({
      kv: redis(prefix),
      pendingNonce: async () => pool.pending,
      logger,
    });
    const b = new NonceManager({
      kv: redis(prefix),
      pendingNonce: async () => pool.pending,
      logger,
    });
    const sends = Array.from({ length: 20 }, (_, i) =>
      (i % 2 === 0 ? a : b).withNonce(ADDRESS, async ({ nonce, confirm }) => {
        await confirm();
        await pool.accept(nonce);
        return nonce;
      }),
    );
    const nonces = await Promise.all(sends);
    expect(new Set(nonces).size).toBe(20);
    expect(pool.accepted).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });

  it('keeps a lagging chain from reusing a nonce, and resynchronises after a failed send', async () => {
    const kv = redis(uniquePrefix('nonce'));
    let chainPending = 0;
    const manager = new NonceManager({ kv, pendingNonce: async () => chainPending, logger });
    // The node accepted nonce 0 but its pending count lags: the stored value decides.
    expect(await manager.withNonce(ADDRESS, async ({ nonce }) => nonce)).toBe(0);
    expect(await manager.withNonce(ADDRESS, async ({ nonce }) => nonce)).toBe(1);
    // A failed send forgets the stored value: the chain's pending nonce decides again.
    await expect(
      manager.withNonce(ADDRESS, async () => {
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    chainPending = 1;
    expect(await manager.withNonce(ADDRESS, async ({ nonce }) => nonce)).toBe(1);
  });

  it('lets the chain decide when it stayed behind longer than the gap timeout', async () => {
    const kv = redis(uniquePrefix('nonce'));
    let now = 1_000;
    const manager = new NonceManager({
      kv,
      pendingNonce: async () => 0,
      logger,
      gapTimeoutMs: 10_000,
      now: () => now,
    });
    expect(await manager.withNonce(ADDRESS, async ({ nonce }) => nonce)).toBe(0);
    expect(await manager.withNonce(ADDRESS, async ({ nonce }) => nonce)).toBe(1);
    now += 5_000;
    expect(await manager.withNonce(ADDRESS, async ({ nonce }) => nonce)).toBe(2);
    now += 10_000;
    expect(await manager.withNonce(ADDRESS, async ({ nonce }) => nonce)).toBe(0);
  });

  it('releases the lease after each send and gives up waiting for a taken one', async () => {
    const prefix = uniquePrefix('nonce');
    const kv = redis(prefix);
    const manager = new NonceManager({ kv, pendingNonce: async () => 0, logger, leaseWaitMs: 100 });
    await manager.withNonce(ADDRESS, async () => undefined);
    expect(await kv.get(`nonce:lease:${ADDRESS.toLowerCase()}`)).toBeNull();
    await kv.set(`nonce:lease:${ADDRESS.toLowerCase()}`, 'someone-else', { ttlMs: 10_000 });
    const sent: number[] = [];
    await expect(
      manager.withNonce(ADDRESS, async ({ nonce }) => void sent.push(nonce)),
    ).rejects.toThrow(/still being sent/);
    expect(sent).toEqual([]);
  });

  it('refuses to send when the lease was lost before the broadcast', async () => {
    const kv = redis(uniquePrefix('nonce'));
    const manager = new NonceManager({ kv, pendingNonce: async () => 0, logger });
    await expect(
      manager.withNonce(ADDRESS, async ({ confirm }) => {
        await kv.set(`nonce:lease:${ADDRESS.toLowerCase()}`, 'taken-over', { ttlMs: 10_000 });
        await confirm();
      }),
    ).rejects.toThrow(/lease .* expired/);
  });
});
