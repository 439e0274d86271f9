import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { LocalChain } from '@itp/harness';
import { createTestDatabase, uniquePrefix, waitFor, type TestDatabase } from '@itp/testing';
import {
  ONE_ETH,
  chainCall,
  createAddress,
  rpc,
  setBalance,
  startTokenApp,
  transferParams,
  type Json,
  type TokenTestApp,
} from './testing/token-test-kit.js';

const TO = '0x000000000000000000000000000000000000dEaD';
const TIMEOUT_MS = 1_000;

/**
 * Issue 31, part 3: while the chain node hangs (anvil paused with SIGSTOP: connections open,
 * nothing answered), every chain-bound call used to wait the whole ETH_RPC_TIMEOUT_MS. The chain
 * client's circuit breaker opens after 3 timeouts: from then on calls answer "503" at once without
 * calling the node, and after the cooldown one probe closes it again once the node answers.
 */
describe('token-rpc while the chain node hangs', () => {
  let chain: LocalChain;
  let db: TestDatabase;
  let app: TokenTestApp;

  const timed = async (call: () => Promise<Json>) => {
    const started = performance.now();
    const answer = await call();
    return { answer, ms: performance.now() - started };
  };
  const getBalance = () => rpc(app.url, '/token', 'getBalance', { address: TO }) as Promise<Json>;

  beforeAll(async () => {
    chain = await LocalChain.start();
    db = await createTestDatabase();
    app = await startTokenApp({
      chainUrl: chain.url,
      databaseUrl: db.url,
      redisPrefix: uniquePrefix('token'),
      env: {
        ETH_RPC_TIMEOUT_MS: String(TIMEOUT_MS),
        ETH_RPC_BREAKER_COOLDOWN_MS: '2000',
        TX_RECONCILE_INTERVAL_MS: '0',
      },
    });
  });
  afterAll(async () => {
    chain?.resume();
    await app?.close();
    await db?.drop();
    await chain?.close();
  });

  it('after 3 timeouts answers 503 at once; after the node is back a probe closes the breaker', async () => {
    const wallet = await createAddress(app.url);
    await setBalance(chain.url, wallet.address, ONE_ETH);
    const params = await transferParams(app.url, wallet, TO, '1');
    expect((await getBalance()).result.resultCode).toBe('200');

    chain.pause();
    try {
      for (let i = 0; i < 3; i += 1) {
        const { answer, ms } = await timed(getBalance);
        expect(answer.result).toMatchObject({
          resultCode: '503',
          resultMessage: `Chain node unavailable: no answer within ${TIMEOUT_MS} ms`,
        });
        expect(ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
      }
      // The 4th call and every one after it: at once, the node is not called.
      const fourth = await timed(getBalance);
      expect(fourth.answer.result.resultCode).toBe('503');
      expect(fourth.answer.result.resultMessage).toMatch(
        /^Chain node unavailable: 3 consecutive calls failed \(last: no answer within 1000 ms\); not called for another [12] s \(circuit open\), nothing was sent$/,
      );
      expect(fourth.ms).toBeLessThan(TIMEOUT_MS / 4);
      const transfer = await timed(() => rpc(app.url, '/token', 'transfer', params));
      expect(transfer.answer.result.resultCode).toBe('503');
      expect(transfer.answer.result.resultMessage).toMatch(/circuit open/);
      expect(transfer.ms).toBeLessThan(TIMEOUT_MS / 4);
      // Readiness stays self-only: the replica stays in the load balancer.
      expect((await fetch(`${app.url}/health/ready/self`)).status).toBe(200);
    } finally {
      chain.resume();
    }

    // After the cooldown one probe goes to the node, which answers again: the breaker closes.
    await waitFor(async () => (await getBalance()).result.resultCode === '200', {
      what: 'getBalance to succeed again',
      timeoutMs: 10_000,
    });
    const again = await transferParams(app.url, wallet, TO, '2');
    const sent = await rpc(app.url, '/token', 'transfer', again);
    expect(sent.result.resultCode).toBe('200');
    // Nothing of the refused transfer reached the chain: the one sent now is the first.
    expect(
      Number(await chainCall(chain.url, 'eth_getTransactionCount', [wallet.address, 'pending'])),
    ).toBe(1);
  }, 30_000);
});
