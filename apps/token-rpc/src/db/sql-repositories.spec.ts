import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { migrateToLatest, openSqlDatabase } from '@itp/stores';
import { createTestDatabase, type TestDatabase } from '@itp/testing';
import type { TransactionEntry } from '../transactions/transaction-log.js';
import { SqlTransactionLog } from './sql-transaction-log.js';
import { SqlWalletRepository } from './sql-wallet-repository.js';
import type { TokenDatabase, TokenSqlDatabase } from './database.js';
import { tokenMigrations } from './migrations.js';

const A = '0x1000000000000000000000000000000000000001';
const sealed = (tag: string) => ({
  privateKeySealed: `pk-${tag}`,
  mnemonicSealed: `mn-${tag}`,
  secretKeySealed: `sk-${tag}`,
});

const dialects: Array<[string, () => Promise<{ url: string; drop: () => Promise<void> }>]> = [
  ['PostgreSQL', () => createTestDatabase()],
  ['SQLite', async () => ({ url: 'sqlite::memory:', drop: async () => undefined })],
];

describe.each(dialects)('token-rpc tables on %s', (_name, create) => {
  let testDb: TestDatabase;
  let database: TokenSqlDatabase;

  beforeAll(async () => {
    testDb = await create();
    database = openSqlDatabase<TokenDatabase>(testDb.url);
    await migrateToLatest(database, tokenMigrations);
    await migrateToLatest(database, tokenMigrations); // idempotent
  });
  afterAll(async () => {
    await database.close();
    await testDb.drop();
  });

  it('stores a wallet address and replaces its secrets on import, keeping created_at', async () => {
    const repo = new SqlWalletRepository(database);
    await repo.upsert({ address: A, ...sealed('1'), createdAt: 1000, updatedAt: 1000 });
    expect(await repo.find(A)).toEqual({
      address: A,
      ...sealed('1'),
      createdAt: 1000,
      updatedAt: 1000,
      didRegisteredAt: null,
    });
    await repo.upsert({ address: A, ...sealed('2'), createdAt: 2000, updatedAt: 2000 });
    expect(await repo.find(A)).toEqual({
      address: A,
      ...sealed('2'),
      createdAt: 1000,
      updatedAt: 2000,
      didRegisteredAt: null,
    });
    expect(await repo.find('0x2000000000000000000000000000000000000002')).toBeNull();
  });

  it('re-seals only while the row still holds the previous values', async () => {
    const repo = new SqlWalletRepository(database);
    expect(await repo.replaceSealed(A, sealed('1'), sealed('3'))).toBe(false);
    expect(await repo.replaceSealed(A, sealed('2'), sealed('3'))).toBe(true);
    expect((await repo.find(A))?.secretKeySealed).toBe('sk-3');
  });

  it('marks an address as registered for a DID once; the mark survives an import', async () => {
    const repo = new SqlWalletRepository(database);
    expect(await repo.markDidRegistered(A, 5000)).toBe(true);
    expect(await repo.markDidRegistered(A, 6000)).toBe(true);
    expect((await repo.find(A))?.didRegisteredAt).toBe(5000);
    await repo.upsert({ address: A, ...sealed('4'), createdAt: 7000, updatedAt: 7000 });
    expect(await repo.find(A)).toMatchObject({ secretKeySealed: 'sk-4', didRegisteredAt: 5000 });
    expect(await repo.markDidRegistered('0x2000000000000000000000000000000000000002', 1)).toBe(
      false,
    );
  });

  it('records a transaction before sending and its outcome after', async () => {
    const log = new SqlTransactionLog(database, () => 5000);
    const hash = `0x${'ab'.repeat(32)}`;
    await log.recordSending({
      hash,
      kind: 'transfer',
      from: A,
      to: '0x2000000000000000000000000000000000000002',
      contractAddress: null,
      nonce: 7,
      value: '123456789012345678901234567890',
      amount: '123456789012345678901234567890',
      requestId: 'req-1',
      createdAt: 4000,
    });
    expect((await log.find(hash))?.status).toBe('sending');
    expect(await log.markOutcome(hash, 'failed', 'x'.repeat(5000))).toBe(true);
    // Only a record still sending takes the broadcast's outcome.
    expect(await log.markOutcome(hash, 'sent')).toBe(false);
    const entry = await log.find(hash);
    expect(entry).toMatchObject({
      hash,
      kind: 'transfer',
      nonce: 7,
      value: '123456789012345678901234567890',
      status: 'failed',
      createdAt: 4000,
      updatedAt: 5000,
    });
    expect(entry?.error).toHaveLength(1000);
    expect(entry?.blockNumber).toBeNull();
    expect(await log.listByAddress(A, 10)).toHaveLength(1);
  });

  it('lists the records that are not final, oldest first, page by page, and settles each once', async () => {
    const B = '0x3000000000000000000000000000000000000003';
    let now = 10_000;
    const log = new SqlTransactionLog(database, () => now);
    const hashes = ['01', '02', '03', '04'].map((n) => `0x${n.repeat(32)}`);
    for (const [i, hash] of hashes.entries()) {
      await log.recordSending({
        hash,
        kind: 'erc20.transfer',
        from: B,
        to: A,
        contractAddress: null,
        nonce: i,
        value: '0',
        amount: String(100 + i),
        requestId: null,
        createdAt: 9_000,
      });
    }
    await log.markOutcome(hashes[1] as string, 'sent');
    await log.markOutcome(hashes[2] as string, 'unknown', 'no answer');
    await log.markOutcome(hashes[3] as string, 'failed', 'refused');
    const mine = (entries: TransactionEntry[]) => entries.filter((e) => e.from === B);
    const page1 = mine(await log.listPending({ updatedBefore: now, limit: 2 }));
    expect(page1.map((e) => e.hash)).toEqual(hashes.slice(0, 2));
    const last = page1[1] as { createdAt: number; hash: string };
    const page2 = mine(await log.listPending({ updatedBefore: now, limit: 2, after: last }));
    expect(page2.map((e) => [e.hash, e.status])).toEqual([[hashes[2], 'unknown']]);
    expect(page2[0]?.amount).toBe('102');
    // Changed after the cutoff (within the grace): not listed.
    expect(mine(await log.listPending({ updatedBefore: 9_999, limit: 10 }))).toHaveLength(1);

    now = 11_000;
    const mined = { status: 'mined' as const, blockNumber: 42, error: null };
    expect(await log.settle(hashes[1] as string, 'sent', mined)).toBe(true);
    expect(await log.settle(hashes[1] as string, 'sent', mined)).toBe(false);
    expect(await log.settle(hashes[0] as string, 'sent', mined)).toBe(false); // it is sending
    const dropped = { status: 'dropped' as const, blockNumber: null, error: 'never mined' };
    const race = await Promise.all([
      log.settle(hashes[0] as string, 'sending', dropped),
      log.settle(hashes[0] as string, 'sending', dropped),
    ]);
    expect(race.filter(Boolean)).toHaveLength(1);
    expect(await log.find(hashes[1] as string)).toMatchObject({
      status: 'mined',
      blockNumber: 42,
      updatedAt: 11_000,
    });
    expect(await log.markOutcome(hashes[1] as string, 'sent')).toBe(false);
    expect(
      mine(await log.listPending({ updatedBefore: now, limit: 10 })).map((e) => e.hash),
    ).toEqual([hashes[2]]);
  });
});
