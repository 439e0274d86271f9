import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { HDNodeWallet, JsonRpcProvider, Network } from 'ethers';
import pg from 'pg';
import { DEV_CHAIN, type RunningAnvil } from '@itp/dev-chain';
import { createTestDatabase, waitFor, uniquePrefix, type TestDatabase } from '@itp/testing';
import {
  ONE_ETH,
  chainCall,
  createAddress,
  failWrites,
  ok,
  receiptOf,
  rpc,
  setBalance,
  startFundedTestChain,
  startTokenApp,
  transferParams,
  waitForTransactionStatus,
  type TestWallet,
  type TokenTestApp,
} from './testing/token-test-kit.js';

const TO = '0x000000000000000000000000000000000000dEaD';
/** The write of a broadcast's outcome (sending → sent | failed | unknown), and only that one. */
const OUTCOME_WRITE = "OLD.status = 'sending' AND NEW.status IN ('sent', 'failed', 'unknown')";

/**
 * Issue 10, part 1: a transaction whose outcome could not be written (the database refused the
 * write at that moment) is answered as sent, is mined, and must not stay `sending` forever. The
 * reconciler settles it against the chain after start and on its timer; getTransactionStatus
 * shows it. Real anvil, Redis and PostgreSQL.
 */
describe('token-rpc transaction reconciliation', () => {
  let chain: RunningAnvil;
  let db: TestDatabase;
  let redisPrefix: string;
  let wallet: TestWallet;
  const apps: TokenTestApp[] = [];

  async function start(env: Record<string, string>): Promise<TokenTestApp> {
    const app = await startTokenApp({
      chainUrl: chain.url,
      databaseUrl: db.url,
      redisPrefix,
      env: { TX_RECONCILE_GRACE_MS: '0', ...env },
    });
    apps.push(app);
    return app;
  }

  beforeAll(async () => {
    chain = await startFundedTestChain();
    db = await createTestDatabase();
    redisPrefix = uniquePrefix('token');
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await db?.drop();
    await chain?.stop();
  });

  /** The stored status of a record, read from the table (not through the API, which settles). */
  async function storedStatus(hash: string): Promise<string | undefined> {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ status: string }>(
        'SELECT status FROM token_transactions WHERE hash = $1',
        [hash],
      );
      return rows[0]?.status;
    } finally {
      await client.end();
    }
  }

  /** A transfer whose outcome write the database refused: mined on chain, stored as sending. */
  async function stuckTransfer(app: TokenTestApp, amount: string): Promise<string> {
    const allowOutcome = await failWrites(db.url, 'token_transactions', 'UPDATE', OUTCOME_WRITE);
    try {
      const sent = await rpc(
        app.url,
        '/token',
        'transfer',
        await transferParams(app.url, wallet, TO, amount),
      );
      expect(sent.result.resultCode).toBe('200');
      return sent.result.TransactionID as string;
    } finally {
      await allowOutcome();
    }
  }

  it('a mined transfer whose outcome write failed stays sending without the reconciler; a restart settles it', async () => {
    const first = await start({ TX_RECONCILE_INTERVAL_MS: '0' });
    wallet = await createAddress(first.url);
    await setBalance(chain.url, wallet.address, ONE_ETH);
    const transactionId = await stuckTransfer(first, '1234');
    const receipt = await receiptOf(chain.url, transactionId);
    expect(await storedStatus(transactionId)).toBe('sending');

    await first.close();
    // Long timer: only the run right after start can settle it (the table shows it, before any
    // getTransactionStatus could settle it on read).
    const restarted = await start({ TX_RECONCILE_INTERVAL_MS: '600000' });
    await waitFor(async () => (await storedStatus(transactionId)) !== 'sending', {
      what: 'the run after start',
      timeoutMs: 10_000,
    });
    expect(await storedStatus(transactionId)).toBe('mined');
    const settled = await ok(restarted.url, '/token', 'getTransactionStatus', { transactionId });
    expect(settled).toEqual({
      transactionId,
      kind: 'transfer',
      status: 'mined',
      final: true,
      from: wallet.address,
      to: TO,
      contractAddress: null,
      amount: '1234',
      nonce: 0,
      blockNumber: Number(receipt.blockNumber),
      error: null,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updatedAt: expect.stringMatching(/Z$/),
    });
    expect(Date.parse(settled.updatedAt)).toBeGreaterThan(Date.parse(settled.createdAt));
  });

  it('getTransactionStatus settles a record whose receipt is there at once, without waiting for a run', async () => {
    const app = await start({ TX_RECONCILE_INTERVAL_MS: '0' });
    const transactionId = await stuckTransfer(app, '99');
    const receipt = await receiptOf(chain.url, transactionId);
    expect(await storedStatus(transactionId)).toBe('sending');
    const answered = await ok(app.url, '/token', 'getTransactionStatus', { transactionId });
    expect(answered).toMatchObject({
      status: 'mined',
      final: true,
      blockNumber: Number(receipt.blockNumber),
    });
    expect(await storedStatus(transactionId)).toBe('mined');
  });

  it('settles on its timer while running, a second replica alongside', async () => {
    const timed = await start({ TX_RECONCILE_INTERVAL_MS: '200' });
    const allowOutcome = await failWrites(db.url, 'token_transactions', 'UPDATE', OUTCOME_WRITE);
    let transactionId: string;
    try {
      const sent = await rpc(
        timed.url,
        '/token',
        'transfer',
        await transferParams(timed.url, wallet, TO, '99'),
      );
      transactionId = sent.result.TransactionID;
    } finally {
      await allowOutcome();
    }
    const receipt = await receiptOf(chain.url, transactionId);
    const settled = await waitForTransactionStatus(timed.url, transactionId, (s) => s.final);
    expect(settled).toMatchObject({ status: 'mined', blockNumber: Number(receipt.blockNumber) });
  });

  it('a transfer replaced on chain (its nonce used by another transaction) becomes dropped', async () => {
    const app = apps[apps.length - 1] as TokenTestApp;
    const provider = new JsonRpcProvider(chain.url, Network.from(DEV_CHAIN.chainId), {
      staticNetwork: true,
      cacheTimeout: -1,
    });
    await chainCall(chain.url, 'evm_setAutomine', [false]);
    let transactionId: string;
    try {
      const sent = await rpc(
        app.url,
        '/token',
        'transfer',
        await transferParams(app.url, wallet, TO, '5'),
      );
      expect(sent.result.resultCode).toBe('200');
      transactionId = sent.result.TransactionID;
      const pending = await ok(app.url, '/token', 'getTransactionStatus', { transactionId });
      expect(pending).toMatchObject({ status: 'sent', final: false });
      // The holder of the mnemonic replaces it elsewhere with a higher fee.
      const owner = HDNodeWallet.fromPhrase(wallet.mnemonic).connect(provider);
      const fees = await provider.getFeeData();
      await owner.sendTransaction({
        to: TO,
        value: 6n,
        nonce: pending.nonce,
        maxFeePerGas: (fees.maxFeePerGas ?? 0n) * 3n + 1n,
        maxPriorityFeePerGas: (fees.maxPriorityFeePerGas ?? 0n) * 3n + 1n,
      });
      await chainCall(chain.url, 'evm_mine');
    } finally {
      await chainCall(chain.url, 'evm_setAutomine', [true]);
      provider.destroy();
    }
    const settled = await waitForTransactionStatus(app.url, transactionId, (s) => s.final);
    expect(settled).toMatchObject({
      status: 'dropped',
      blockNumber: null,
      error: expect.stringMatching(
        /^never mined: nonce \d+ of 0x[0-9a-fA-F]{40} was used by another/,
      ),
    });
    expect(await chainCall(chain.url, 'eth_getTransactionReceipt', [transactionId])).toBeNull();
  });

  it('getTransactionStatus: 404 for an unknown TransactionID, -32602 for a malformed one, either case', async () => {
    const app = apps[apps.length - 1] as TokenTestApp;
    const unknown = `0x${'ab'.repeat(32)}`;
    const answer = await rpc(app.url, '/token', 'getTransactionStatus', { transactionId: unknown });
    expect(answer.result).toEqual({
      resultCode: '404',
      resultMessage: `${unknown} is not a transaction this service sent`,
      resultData: '',
    });
    for (const transactionId of ['0x1234', 'ab'.repeat(32), undefined]) {
      const bad = await rpc(app.url, '/token', 'getTransactionStatus', { transactionId });
      expect(bad.error.code).toBe(-32602);
    }
    const sent = await rpc(
      app.url,
      '/token',
      'transfer',
      await transferParams(app.url, wallet, TO, '7'),
    );
    const id: string = sent.result.TransactionID;
    const upper = `0x${id.slice(2).toUpperCase()}`;
    expect(
      (await ok(app.url, '/token', 'getTransactionStatus', [{ transactionId: upper }]))
        .transactionId,
    ).toBe(id);
  });
});
