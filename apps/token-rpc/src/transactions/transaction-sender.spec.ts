import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { HDNodeWallet, Interface } from 'ethers';
import { pino } from 'pino';
import { createChainClient, type ChainClient } from '@itp/chain';
import { DEV_CHAIN, type RunningAnvil } from '@itp/dev-chain';
import { MemoryKvStore, migrateToLatest, openSqlDatabase } from '@itp/stores';
import { createTestDatabase, type TestDatabase } from '@itp/testing';
import type { TokenDatabase, TokenSqlDatabase } from '../db/database.js';
import { tokenMigrations } from '../db/migrations.js';
import { SqlTransactionLog } from '../db/sql-transaction-log.js';
import { receiptOf, startFundedTestChain } from '../testing/token-test-kit.js';
import { TempKeyAlreadySentError } from '../errors.js';
import { NonceManager } from './nonce-manager.js';
import type { TransactionLog } from './transaction-log.js';
import { TransactionSender } from './transaction-sender.js';

const logger = pino({ level: 'silent' });
const TO = '0x000000000000000000000000000000000000dEaD';

describe('TransactionSender (anvil, PostgreSQL)', () => {
  let chain: RunningAnvil;
  let client: ChainClient;
  let testDb: TestDatabase;
  let database: TokenSqlDatabase;
  const kv = new MemoryKvStore();

  beforeAll(async () => {
    chain = await startFundedTestChain();
    client = createChainClient({ rpcUrl: chain.url, timeoutMs: 5000 });
    testDb = await createTestDatabase();
    database = openSqlDatabase<TokenDatabase>(testDb.url);
    await migrateToLatest(database, tokenMigrations);
  });
  afterAll(async () => {
    await kv.close();
    await database?.close();
    await testDb?.drop();
    await client?.close();
    await chain?.stop();
  });

  it('signs again with the fee + 1 wei when the log already holds the identical transaction', async () => {
    // What the resilience suite saw after a chain restart: the same transfer (content, nonce and
    // fees) as an earlier record whose send had failed signs to the same hash, and the log
    // refused the second record with a duplicate key: a 500. Here the first insert of each hash
    // is made twice, so the sender meets a real PostgreSQL unique violation.
    const real = new SqlTransactionLog(database);
    const seen: string[] = [];
    const log: TransactionLog = Object.assign(Object.create(real) as TransactionLog, {
      recordSending: async (...args: Parameters<TransactionLog['recordSending']>) => {
        seen.push(args[0].hash);
        if (seen.length === 1) await real.recordSending(...args);
        return real.recordSending(...args);
      },
    });
    const nonces = new NonceManager({
      kv,
      logger,
      pendingNonce: async (address) =>
        Number(await client.request('eth_getTransactionCount', [address, 'pending'])),
    });
    const sender = new TransactionSender({
      chain: client,
      nonces,
      log,
      logger,
      errorInterface: new Interface([]),
    });
    const funded = HDNodeWallet.fromPhrase(DEV_CHAIN.mnemonic, undefined, "m/44'/60'/0'/0/7");
    const sent = await sender.send({
      kind: 'transfer',
      wallet: { address: funded.address, signingKey: funded.signingKey },
      to: TO,
      value: 1000n,
      data: '0x',
    });
    expect(seen).toHaveLength(2);
    expect(seen[1]).not.toBe(seen[0]);
    expect(sent.hash).toBe(seen[1]);
    expect((await receiptOf(chain.url, sent.hash)).status).toBe('0x1');
    expect(await real.find(sent.hash)).toMatchObject({ status: 'sent', nonce: sent.nonce });
    // The first record stays as it was (its transaction was never broadcast).
    expect(await real.find(seen[0]!)).toMatchObject({ status: 'sending', nonce: sent.nonce });
  });

  it('sends nothing when the log already holds a transaction for the tempKey (unique temp_key_hash)', async () => {
    // Two requests got past Redis with one tempKey (Redis went back in time): the one that
    // records second meets the unique temp_key_hash and is answered from the first one's record.
    const log = new SqlTransactionLog(database);
    const funded = HDNodeWallet.fromPhrase(DEV_CHAIN.mnemonic, undefined, "m/44'/60'/0'/0/6");
    const nonceOf = async () =>
      Number(await client.request('eth_getTransactionCount', [funded.address, 'pending']));
    const requestKey = { tempKeyHash: 'e'.repeat(64), fingerprint: 'the-first-request' };
    const original = `0x${'1'.repeat(64)}`;
    await log.recordSending(
      {
        hash: original,
        kind: 'transfer',
        from: funded.address,
        to: TO,
        contractAddress: null,
        nonce: 999,
        value: '1',
        amount: '1',
        requestId: null,
        createdAt: 1000,
      },
      requestKey,
    );
    const nonces = new NonceManager({ kv, logger, pendingNonce: nonceOf });
    const sender = new TransactionSender({
      chain: client,
      nonces,
      log,
      logger,
      errorInterface: new Interface([]),
    });
    const wallet = { address: funded.address, signingKey: funded.signingKey };
    const before = await nonceOf();
    const err = await sender
      .send({
        kind: 'transfer',
        wallet: { ...wallet, requestKey: { ...requestKey, fingerprint: 'a-second-request' } },
        to: TO,
        value: 5n,
        data: '0x',
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TempKeyAlreadySentError);
    expect((err as TempKeyAlreadySentError).recorded).toMatchObject({
      entry: { hash: original },
      fingerprint: 'the-first-request',
    });
    expect(await nonceOf()).toBe(before);
    expect(await log.listByAddress(funded.address, 10)).toEqual([
      expect.objectContaining({ hash: original }),
    ]);
    // The nonce was not spent: the next transaction from the address takes it.
    const next = await sender.send({ kind: 'transfer', wallet, to: TO, value: 5n, data: '0x' });
    expect(next.nonce).toBe(before);
  });
});
