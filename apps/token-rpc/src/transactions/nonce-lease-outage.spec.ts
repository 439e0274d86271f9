import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { pino } from 'pino';
import { ServiceUnavailableError } from '@itp/errors';
import { startTcpProxy, type TcpProxy } from '@itp/harness';
import { RedisKvStore } from '@itp/stores';
import { testRedisUrl, uniquePrefix, waitFor } from '@itp/testing';
import { NonceManager } from './nonce-manager.js';

const logger = pino({ level: 'silent' });
const A = '0x00000000000000000000000000000000000000a1';
const B = '0x00000000000000000000000000000000000000b2';

/**
 * Issue 18, item 1: after Redis was away 10 s, sends from some addresses stayed blocked 50-60 s —
 * a SET NX queued while Redis was down was sent at reconnect after its caller had given up,
 * taking a lease nobody held (60 s TTL), and a lease whose release failed lived its full TTL.
 * Real Redis behind a TCP proxy that the test cuts and restores.
 */
describe('NonceManager across a Redis outage', () => {
  let proxy: TcpProxy;
  let kv: RedisKvStore;
  let nonces: NonceManager;
  const send = (address: string) =>
    nonces.withNonce(address, async (lease) => {
      await lease.confirm();
      return lease.nonce;
    });

  beforeAll(async () => {
    proxy = await startTcpProxy(testRedisUrl());
    kv = new RedisKvStore({
      url: proxy.proxiedUrl(testRedisUrl()),
      keyPrefix: uniquePrefix('nonce-outage'),
      commandTimeoutMs: 500,
    });
    // The defaults of token-rpc: lease TTL 5 s (renewed while held), wait 10 s.
    nonces = new NonceManager({ kv, logger, pendingNonce: async () => 7 });
  });
  afterAll(async () => {
    await kv?.close();
    await proxy?.close();
  });

  it('a lease in flight when Redis goes away: 503s meanwhile, every address sends again within 5 s of its return', async () => {
    expect(await send(A)).toBe(7);
    // B holds its lease (a send in flight) when Redis goes away.
    let finish: () => void = () => undefined;
    let leaseTaken: () => void = () => undefined;
    const taken = new Promise<void>((resolve) => (leaseTaken = resolve));
    const inFlight = nonces.withNonce(B, async (lease) => {
      leaseTaken();
      await new Promise<void>((resolve) => (finish = resolve));
      await lease.confirm();
      return lease.nonce;
    });
    await taken; // B's lease is taken
    await proxy.cut();
    // While Redis is away: a clear 503 at once (never queued for later), for A and for B's send.
    const started = Date.now();
    await expect(send(A)).rejects.toBeInstanceOf(ServiceUnavailableError);
    expect(Date.now() - started).toBeLessThan(2_000);
    finish();
    await expect(inFlight).rejects.toBeInstanceOf(ServiceUnavailableError);
    // Requests keep arriving during the outage, which lasts half a second (each of them would
    // have queued a SET NX before).
    for (let i = 0; i < 5; i += 1) {
      await expect(send(A)).rejects.toBeInstanceOf(ServiceUnavailableError);
      // A real duration, not a wait: the outage goes on while the requests arrive.
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await proxy.restore();
    const back = Date.now();
    // Both addresses work again within 5 s: no lease taken by a replayed command, and B's
    // unreleased lease (its release failed) ends within its TTL.
    await waitFor(() => send(A).then(() => true), {
      what: 'a send from A to succeed after Redis came back',
      timeoutMs: 5_000,
    });
    await waitFor(() => send(B).then(() => true), {
      what: 'a send from B (whose lease release failed) to succeed after Redis came back',
      timeoutMs: 5_000 - (Date.now() - back),
    });
    expect(Date.now() - back).toBeLessThan(5_000);
  }, 30_000);
});
