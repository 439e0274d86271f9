import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startAnvil, type RunningAnvil } from '@itp/dev-chain';
import { createTestDatabase, freePort, uniquePrefix, type TestDatabase } from '@itp/testing';
import {
  ONE_ETH,
  chainCall,
  createAddress,
  receiptOf,
  rpc,
  setBalance,
  startTokenApp,
  transferParams,
  type TokenTestApp,
} from './testing/token-test-kit.js';

/** A chain without EIP-1559 (berlin rules, no base fee): legacy gasPrice transactions. */
describe('token-rpc on a chain without a base fee', () => {
  let chain: RunningAnvil;
  let db: TestDatabase;
  let app: TokenTestApp;

  beforeAll(async () => {
    chain = await startAnvil({ port: await freePort(), args: ['--hardfork', 'berlin'] });
    db = await createTestDatabase();
    app = await startTokenApp({
      chainUrl: chain.url,
      databaseUrl: db.url,
      redisPrefix: uniquePrefix('token'),
    });
  });
  afterAll(async () => {
    await app?.close();
    await db?.drop();
    await chain?.stop();
  });

  it('sends a legacy transaction priced with eth_gasPrice', async () => {
    const wallet = await createAddress(app.url);
    await setBalance(chain.url, wallet.address, ONE_ETH);
    const to = '0x000000000000000000000000000000000000dEaD';
    const sent = await rpc(
      app.url,
      '/token',
      'transfer',
      await transferParams(app.url, wallet, to, '5'),
    );
    expect(sent.result.resultCode).toBe('200');
    expect((await receiptOf(chain.url, sent.result.TransactionID)).status).toBe('0x1');
    const tx = await chainCall(chain.url, 'eth_getTransactionByHash', [sent.result.TransactionID]);
    expect(tx.type).toBe('0x0');
    expect(BigInt(tx.gasPrice)).toBe(BigInt(await chainCall(chain.url, 'eth_gasPrice')));
  });
});
