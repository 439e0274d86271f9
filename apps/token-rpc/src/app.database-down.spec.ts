import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { RunningAnvil } from '@itp/dev-chain';
import { startTcpProxy, type TcpProxy } from '@itp/harness';
import { createTestDatabase, freePort, uniquePrefix, type TestDatabase } from '@itp/testing';
import {
  ONE_ETH,
  chainCall,
  createAddress,
  ok,
  receiptOf,
  rpc,
  setBalance,
  sha256,
  startFundedTestChain,
  startTokenApp,
  transferParams,
  type Json,
  type TestWallet,
  type TokenTestApp,
} from './testing/token-test-kit.js';

const TO = '0x000000000000000000000000000000000000dEaD';

/** The service error of an answer, checked to be one (never a -32603 protocol error). */
function serviceError(answer: Json): { code: string; message: string } {
  expect(answer.error).toBeUndefined();
  expect(answer.result.resultData).toBe('');
  return { code: answer.result.resultCode, message: answer.result.resultMessage };
}

/**
 * PostgreSQL going away under a running token-rpc (a TCP proxy between them is cut): every call
 * that needs the database answers the documented "503" (Database unavailable), never -32603 or
 * "500", nothing is sent, and the service recovers when the database is back.
 */
describe('token-rpc with the database going away', () => {
  let chain: RunningAnvil;
  let db: TestDatabase;
  let proxy: TcpProxy;
  let app: TokenTestApp;
  let wallet: TestWallet;

  beforeAll(async () => {
    chain = await startFundedTestChain();
    db = await createTestDatabase();
    proxy = await startTcpProxy(db.url);
    app = await startTokenApp({
      chainUrl: chain.url,
      databaseUrl: proxy.proxiedUrl(db.url),
      redisPrefix: uniquePrefix('token'),
    });
    wallet = await createAddress(app.url);
    await setBalance(chain.url, wallet.address, ONE_ETH);
  });
  afterAll(async () => {
    await app?.close();
    await proxy?.close();
    await db?.drop();
    await chain?.stop();
  });

  it('answers 503 "Database unavailable" for every call that needs it; nothing is sent', async () => {
    const params = await transferParams(app.url, wallet, TO, '1000');
    const earlier = await rpc(
      app.url,
      '/token',
      'transfer',
      await transferParams(app.url, wallet, TO, '1'),
    );
    const earlierId: string = earlier.result.TransactionID;
    await receiptOf(chain.url, earlierId);
    const { tempKey } = await ok(app.url, '/token', 'net_getTempKey', {
      address: wallet.address,
      keyType: 'transfer',
    });
    const nonceBefore = await chainCall(chain.url, 'eth_getTransactionCount', [
      wallet.address,
      'pending',
    ]);

    await proxy.cut();
    const unavailable = {
      code: '503',
      message: expect.stringMatching(/^Database unavailable: /),
    };
    expect(serviceError(await rpc(app.url, '/token', 'createAddress'))).toEqual(unavailable);
    expect(
      serviceError(
        await rpc(app.url, '/token', 'importAddress', {
          mnemonic: `${'abandon '.repeat(11)}about`,
        }),
      ),
    ).toEqual(unavailable);
    expect(
      serviceError(
        await rpc(app.url, '/token', 'net_getTempKey', {
          address: wallet.address,
          keyType: 'transfer',
        }),
      ),
    ).toEqual(unavailable);
    expect(
      serviceError(
        await rpc(app.url, '/token', 'signData', {
          from: wallet.address,
          hash: sha256('x'),
          tempKey,
          hashKey: sha256(`${tempKey}|${wallet.secretKey}`),
        }),
      ),
    ).toEqual(unavailable);
    const transfer = serviceError(await rpc(app.url, '/token', 'transfer', params));
    expect(transfer).toEqual(unavailable);
    expect(
      serviceError(
        await rpc(app.url, '/token', 'getTransactionStatus', { transactionId: earlierId }),
      ),
    ).toEqual(unavailable);
    // Neither the host nor the port of the database is in an answer.
    expect(transfer.message).not.toContain(String(proxy.port));
    expect(transfer.message).not.toContain('127.0.0.1');
    const ready = await fetch(`${app.url}/health/ready`);
    expect(ready.status).toBe(503);
    expect(((await ready.json()) as Json).notReady).toEqual(['database']);
    expect(await chainCall(chain.url, 'eth_getTransactionCount', [wallet.address, 'pending'])).toBe(
      nonceBefore,
    );

    // Back: the pool reconnects, the same calls work again.
    await proxy.restore();
    expect((await rpc(app.url, '/token', 'createAddress')).result.resultCode).toBe('200');
    const status = await ok(app.url, '/token', 'getTransactionStatus', {
      transactionId: earlierId,
    });
    expect(status.transactionId).toBe(earlierId);
    const retry = await rpc(
      app.url,
      '/token',
      'transfer',
      await transferParams(app.url, wallet, TO, '1000'),
    );
    expect(retry.result.resultCode).toBe('200');
    expect((await fetch(`${app.url}/health/ready`)).status).toBe(200);
  });

  it('refuses to start with a database URL on a closed port', async () => {
    const closed = new URL(db.url);
    closed.hostname = '127.0.0.1';
    closed.port = String(await freePort());
    await expect(
      startTokenApp({
        chainUrl: chain.url,
        databaseUrl: closed.toString(),
        redisPrefix: uniquePrefix('token'),
      }),
    ).rejects.toThrow(/ECONNREFUSED/);
  });
});
