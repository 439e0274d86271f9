import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { migrateToLatest, openSqlDatabase } from '@itp/stores';
import { createTestDatabase } from '@itp/testing';
import type { TokenDatabase, TokenSqlDatabase, TokenTransactionsTable } from './database.js';
import { tokenMigrationSet } from './migrations.js';
import { SqlTransactionLog } from './sql-transaction-log.js';

const dialects: Array<[string, () => Promise<{ url: string; drop: () => Promise<void> }>]> = [
  ['PostgreSQL', () => createTestDatabase()],
  ['SQLite', async () => ({ url: 'sqlite::memory:', drop: async () => undefined })],
];

const FROM = '0x1000000000000000000000000000000000000001';
const TK_A = 'a'.repeat(64);
const TK_B = 'b'.repeat(64);
const hash = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

function row(
  n: number,
  tempKeyHash: string | null,
  createdAt: number,
  fingerprint: string | null = tempKeyHash ? `fp-${n}` : null,
): TokenTransactionsTable {
  return {
    hash: hash(n),
    kind: 'transfer',
    from_address: FROM,
    to_address: FROM,
    contract_address: null,
    nonce: n,
    value: '1',
    amount: '1',
    status: 'mined',
    block_number: n,
    error: null,
    request_id: null,
    temp_key_hash: tempKeyHash,
    request_fingerprint: fingerprint,
    created_at: createdAt,
    updated_at: createdAt,
  };
}

/**
 * Migration 0005 (SQL decides the tempKey): a database written while `temp_key_hash` was not
 * unique may hold one tempKey on several transactions (sent twice after Redis went back in time).
 * The migration keeps the hash on the earliest row of each, clears it on the later ones (they stay
 * recorded), says how many, and makes the column unique.
 */
describe.each(dialects)('migration 0005 (unique temp_key_hash) on %s', (_name, create) => {
  let testDb: { url: string; drop: () => Promise<void> };
  let database: TokenSqlDatabase;
  const reports: string[] = [];

  beforeAll(async () => {
    testDb = await create();
    database = openSqlDatabase<TokenDatabase>(testDb.url);
    const full = tokenMigrationSet((message) => reports.push(message));
    const before0005 = Object.fromEntries(
      Object.entries(full.migrations).filter(([name]) => name < '0005'),
    );
    await migrateToLatest(database, { tableName: full.tableName, migrations: before0005 });
    await database.db
      .insertInto('token_transactions')
      .values([
        row(1, TK_A, 1000), // the original: keeps the tempKey
        row(2, TK_A, 2000), // sent again with the same tempKey
        row(3, TK_A, 2000), // and again, at the same millisecond (the hash orders them)
        row(4, TK_B, 1500), // a tempKey used once
        row(5, null, 1700), // dev funding: no tempKey
        row(6, TK_B, 1500), // TK_B again, at the same millisecond as its original
      ])
      .execute();
    await migrateToLatest(database, full);
    await migrateToLatest(database, full); // idempotent
  });
  afterAll(async () => {
    await database?.close();
    await testDb?.drop();
  });

  it('keeps the tempKey on the earliest row of each, clears the later ones, keeps every row', async () => {
    const rows = await database.db
      .selectFrom('token_transactions')
      .select(['hash', 'temp_key_hash', 'request_fingerprint'])
      .orderBy('hash')
      .execute();
    expect(rows).toEqual([
      { hash: hash(1), temp_key_hash: TK_A, request_fingerprint: 'fp-1' },
      { hash: hash(2), temp_key_hash: null, request_fingerprint: 'fp-2' },
      { hash: hash(3), temp_key_hash: null, request_fingerprint: 'fp-3' },
      { hash: hash(4), temp_key_hash: TK_B, request_fingerprint: 'fp-4' },
      { hash: hash(5), temp_key_hash: null, request_fingerprint: null },
      { hash: hash(6), temp_key_hash: null, request_fingerprint: 'fp-6' },
    ]);
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatch(/^migration 0005: 3 transaction\(s\) shared a tempKey/);
    const log = new SqlTransactionLog(database);
    expect((await log.findByTempKey(TK_A))?.entry.hash).toBe(hash(1));
    expect((await log.findByTempKey(TK_B))?.entry.hash).toBe(hash(4));
  });

  it('refuses a second transaction for a tempKey; rows without one are not limited', async () => {
    const log = new SqlTransactionLog(database);
    const entry = {
      hash: hash(7),
      kind: 'transfer' as const,
      from: FROM,
      to: FROM,
      contractAddress: null,
      nonce: 7,
      value: '1',
      amount: '1',
      requestId: null,
      createdAt: 3000,
    };
    await expect(
      log.recordSending(entry, { tempKeyHash: TK_A, fingerprint: 'fp-7' }),
    ).rejects.toThrow();
    await log.recordSending(entry);
    await log.recordSending({ ...entry, hash: hash(8), nonce: 8 });
    await log.recordSending(
      { ...entry, hash: hash(9), nonce: 9 },
      {
        tempKeyHash: 'c'.repeat(64),
        fingerprint: 'fp-9',
      },
    );
    expect(await log.find(hash(7))).not.toBeNull();
  });
});
