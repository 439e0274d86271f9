import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { migrateToLatest, openSqlDatabase } from '@itp/stores';
import { createTestDatabase, type TestDatabase } from '@itp/testing';
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
      requestId: 'req-1',
      createdAt: 4000,
    });
    expect((await log.find(hash))?.status).toBe('sending');
    await log.markOutcome(hash, 'failed', 'x'.repeat(5000));
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
    expect(await log.listByAddress(A, 10)).toHaveLength(1);
  });
});
