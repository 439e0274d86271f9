import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  HDNodeWallet,
  JsonRpcProvider,
  Network,
  Transaction,
  Wallet,
  type TransactionRequest,
} from 'ethers';
import { pino } from 'pino';
import { createChainClient, type ChainClient } from '@itp/chain';
import { DEV_CHAIN, freePort, type RunningAnvil } from '@itp/dev-chain';
import { migrateToLatest, openSqlDatabase } from '@itp/stores';
import { createTestDatabase, waitFor, type TestDatabase } from '@itp/testing';
import type { TokenDatabase, TokenSqlDatabase } from '../db/database.js';
import { tokenMigrations } from '../db/migrations.js';
import { SqlTransactionLog } from '../db/sql-transaction-log.js';
import { chainCall, receiptOf, startFundedTestChain } from '../testing/token-test-kit.js';
import type { TransactionEntry, TransactionLog } from './transaction-log.js';
import {
  TransactionReconciler,
  type TransactionReconcilerOptions,
} from './transaction-reconciler.js';

/**
 * The reconciler against a real anvil and PostgreSQL: transactions are really sent (ethers, the
 * dev chain's well-known accounts), their records written as a token-rpc replica would have left
 * them (the outcome write lost: `sending`; `sent`; `unknown`), and the reconciler settles them.
 */
const logger = pino({ level: 'silent' });
const TO = '0x000000000000000000000000000000000000dEaD';

describe('TransactionReconciler (anvil, PostgreSQL)', () => {
  let chain: RunningAnvil;
  let client: ChainClient;
  let provider: JsonRpcProvider;
  let testDb: TestDatabase;
  let database: TokenSqlDatabase;
  let log: SqlTransactionLog;
  let nextAccount = 1;

  /** A fresh funded dev account (#1, #2, …) per test, so that nonces do not mix. */
  function account(): Wallet {
    const node = HDNodeWallet.fromPhrase(
      DEV_CHAIN.mnemonic,
      undefined,
      `m/44'/60'/0'/0/${nextAccount++}`,
    );
    return new Wallet(node.privateKey, provider);
  }

  /** Sends a transaction and records it as token-rpc would have, with `status`. */
  async function sendAndRecord(
    wallet: Wallet,
    tx: TransactionRequest,
    status: 'sending' | 'sent' | 'unknown',
  ): Promise<TransactionEntry> {
    const nonce = tx.nonce ?? (await provider.getTransactionCount(wallet.address, 'pending'));
    const signed = await wallet.signTransaction(
      await wallet.populateTransaction({ ...tx, nonce, chainId: DEV_CHAIN.chainId }),
    );
    const hash: string = await chainCall(chain.url, 'eth_sendRawTransaction', [signed]);
    await log.recordSending({
      hash,
      kind: 'transfer',
      from: wallet.address,
      to: typeof tx.to === 'string' ? tx.to : null,
      contractAddress: null,
      nonce,
      value: String(tx.value ?? 0),
      amount: String(tx.value ?? 0),
      requestId: null,
      createdAt: Date.now() - 60_000,
    });
    if (status !== 'sending') await log.markOutcome(hash, status);
    return (await log.find(hash)) as TransactionEntry;
  }

  function reconciler(overrides: Partial<TransactionReconcilerOptions> = {}) {
    return new TransactionReconciler({
      log,
      chain: client,
      logger,
      intervalMs: 0,
      graceMs: 0,
      ...overrides,
    });
  }

  beforeAll(async () => {
    chain = await startFundedTestChain();
    client = createChainClient({ rpcUrl: chain.url, timeoutMs: 5000 });
    provider = new JsonRpcProvider(chain.url, Network.from(DEV_CHAIN.chainId), {
      staticNetwork: true,
      batchMaxCount: 1,
      cacheTimeout: -1,
    });
    testDb = await createTestDatabase();
    database = openSqlDatabase<TokenDatabase>(testDb.url);
    await migrateToLatest(database, tokenMigrations);
    log = new SqlTransactionLog(database);
  });
  afterAll(async () => {
    provider?.destroy();
    await client?.close();
    await database?.close();
    await testDb?.drop();
    await chain?.stop();
  });

  it('settles a mined transaction whose outcome was never written: mined, with its block', async () => {
    const entry = await sendAndRecord(account(), { to: TO, value: 1000n }, 'sending');
    const receipt = await receiptOf(chain.url, entry.hash);
    const summary = await reconciler().reconcileOnce();
    expect(summary).toMatchObject({ mined: 1, failed: 0, dropped: 0 });
    expect(await log.find(entry.hash)).toMatchObject({
      status: 'mined',
      blockNumber: Number(receipt.blockNumber),
      error: null,
    });
    // Settled records are final: the next run does not look at them again.
    expect((await reconciler().reconcileOnce()).checked).toBe(0);
  });

  it('settles a transaction that reverted on chain (receipt status 0) as failed, with its block', async () => {
    // A deployment whose init code is the INVALID opcode: mined, status 0.
    const entry = await sendAndRecord(
      account(),
      { to: null, data: '0xfe', gasLimit: 100_000n },
      'unknown',
    );
    const receipt = await receiptOf(chain.url, entry.hash);
    expect(receipt.status).toBe('0x0');
    await reconciler().reconcileOnce();
    expect(await log.find(entry.hash)).toMatchObject({
      status: 'failed',
      blockNumber: Number(receipt.blockNumber),
      error: 'reverted on chain (receipt status 0)',
    });
  });

  it('leaves a pending transaction alone, and marks one replaced by another with its nonce dropped', async () => {
    await chainCall(chain.url, 'evm_setAutomine', [false]);
    try {
      const wallet = account();
      const first = await sendAndRecord(wallet, { to: TO, value: 1n }, 'sent');
      // In the pool, not mined, nonce not used: still pending.
      expect(await reconciler().reconcileOnce()).toMatchObject({ checked: 1, pending: 1 });
      expect((await log.find(first.hash))?.status).toBe('sent');

      // Replaced in the pool (same nonce, higher fees), then mined: the first can never be mined.
      const fees = await provider.getFeeData();
      const replacement = await sendAndRecord(
        wallet,
        {
          to: TO,
          value: 2n,
          nonce: first.nonce,
          maxFeePerGas: (fees.maxFeePerGas ?? 0n) * 3n + 1n,
          maxPriorityFeePerGas: (fees.maxPriorityFeePerGas ?? 0n) * 3n + 1n,
        },
        'sent',
      );
      await chainCall(chain.url, 'evm_mine');
      const summary = await reconciler().reconcileOnce();
      expect(summary).toMatchObject({ checked: 2, mined: 1, dropped: 1 });
      expect(await log.find(first.hash)).toMatchObject({
        status: 'dropped',
        blockNumber: null,
        error: `never mined: nonce ${first.nonce} of ${wallet.address} was used by another transaction`,
      });
      expect((await log.find(replacement.hash))?.status).toBe('mined');
    } finally {
      await chainCall(chain.url, 'evm_setAutomine', [true]);
    }
  });

  it('marks a transaction the node never got, whose nonce went to another, dropped', async () => {
    const wallet = account();
    const nonce = await provider.getTransactionCount(wallet.address, 'latest');
    // Signed and recorded (sending), then the process died before the broadcast.
    const lost = await wallet.signTransaction(
      await wallet.populateTransaction({ to: TO, value: 5n, nonce, chainId: DEV_CHAIN.chainId }),
    );
    const hash = Transaction.from(lost).hash as string;
    await log.recordSending({
      hash,
      kind: 'transfer',
      from: wallet.address,
      to: TO,
      contractAddress: null,
      nonce,
      value: '5',
      amount: '5',
      requestId: null,
      createdAt: Date.now() - 60_000,
    });
    expect((await reconciler().reconcileOnce()).pending).toBeGreaterThanOrEqual(1);
    const other = await sendAndRecord(wallet, { to: TO, value: 6n, nonce }, 'sent');
    await receiptOf(chain.url, other.hash);
    await reconciler().reconcileOnce();
    expect((await log.find(hash))?.status).toBe('dropped');
    expect((await log.find(other.hash))?.status).toBe('mined');
  });

  it('leaves records changed within the grace to the request that sends them', async () => {
    const entry = await sendAndRecord(account(), { to: TO, value: 7n }, 'sending');
    await receiptOf(chain.url, entry.hash);
    // recordSending dated it a minute back; the outcome write (now) is what the grace looks at.
    await database.db
      .updateTable('token_transactions')
      .set({ updated_at: Date.now() })
      .where('hash', '=', entry.hash)
      .execute();
    expect((await reconciler({ graceMs: 60_000 }).reconcileOnce()).checked).toBe(0);
    expect((await log.find(entry.hash))?.status).toBe('sending');
    expect((await reconciler({ graceMs: 0 }).reconcileOnce()).mined).toBe(1);
  });

  it('is safe on several replicas at once: each record is settled exactly once', async () => {
    const wallet = account();
    const entries: TransactionEntry[] = [];
    for (let i = 0; i < 6; i++) {
      entries.push(await sendAndRecord(wallet, { to: TO, value: BigInt(10 + i) }, 'sending'));
    }
    await receiptOf(chain.url, (entries[5] as TransactionEntry).hash);
    const summaries = await Promise.all([
      reconciler().reconcileOnce(),
      reconciler().reconcileOnce(),
      reconciler({ pageSize: 2 }).reconcileOnce(),
    ]);
    expect(summaries.reduce((sum, s) => sum + s.mined, 0)).toBe(6);
    for (const entry of entries) expect((await log.find(entry.hash))?.status).toBe('mined');
  });

  it('runs after start and on its timer until stopped; a failing run is retried', async () => {
    let runs = 0;
    let failNext = true;
    const counting: TransactionLog = Object.assign(Object.create(log) as TransactionLog, {
      listPending: async (options: Parameters<TransactionLog['listPending']>[0]) => {
        runs += 1;
        if (failNext) {
          failNext = false;
          throw new Error('database went away');
        }
        return log.listPending(options);
      },
    });
    const entry = await sendAndRecord(account(), { to: TO, value: 8n }, 'sending');
    await receiptOf(chain.url, entry.hash);
    const timed = reconciler({ log: counting, intervalMs: 50 });
    timed.start();
    await waitFor(async () => (await log.find(entry.hash))?.status === 'mined', {
      what: 'mined',
      timeoutMs: 5_000,
    });
    expect((await log.find(entry.hash))?.status).toBe('mined');
    expect(runs).toBeGreaterThanOrEqual(2);
    await timed.stop();
    const stoppedAt = runs;
    // A real duration, not a wait: four intervals in which a stopped reconciler must not run.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(runs).toBe(stoppedAt);
  });

  it('throws (and changes nothing) when the chain node is down', async () => {
    const entry = await sendAndRecord(account(), { to: TO, value: 9n }, 'sending');
    const down = createChainClient({
      rpcUrl: `http://127.0.0.1:${await freePort()}`,
      timeoutMs: 500,
    });
    try {
      await expect(reconciler({ chain: down }).reconcileOnce()).rejects.toThrow(
        /connection failed/,
      );
      expect((await log.find(entry.hash))?.status).toBe('sending');
    } finally {
      await down.close();
    }
    await receiptOf(chain.url, entry.hash);
    await reconciler().reconcileOnce();
    expect((await log.find(entry.hash))?.status).toBe('mined');
  });
});
