import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { migrateToLatest, openSqlDatabase, type SqlDatabase } from '@itp/stores';
import { freshDatabase, type DialectDatabase } from '../testing/test-databases.js';
import type { BlockDb } from '../db/block-db.js';
import { LeaseLostError } from './lease-lost-error.js';
import { BlockIndexStore, type IndexedBlock } from './block-index-store.js';
import { BLOCK_RPC_MIGRATION_TABLE, blockRpcMigrations } from '../db/migrations.js';

const hash = (n: number, fork = 'a') => `0x${fork}${n.toString(16).padStart(63, '0')}`;
const DAY1 = Date.UTC(2031, 4, 1, 12) / 1000;

/** Consecutive blocks from..to, linked by parent hash, `fork` making their hashes differ. */
function chainOf(from: number, to: number, fork = 'a', txCount = 1): IndexedBlock[] {
  const blocks: IndexedBlock[] = [];
  for (let n = from; n <= to; n += 1) {
    blocks.push({
      number: n,
      hash: hash(n, fork),
      parentHash: n === from && from > 0 ? hash(n - 1, 'a') : hash(n - 1, fork),
      timestamp: DAY1 + n * 3600,
      txCount,
    });
  }
  return blocks;
}

describe.each(['postgres', 'sqlite'] as const)('BlockIndexStore on %s', (dialect) => {
  let database: DialectDatabase;
  let sql: SqlDatabase<BlockDb>;
  let store: BlockIndexStore;

  beforeAll(async () => {
    database = await freshDatabase(dialect);
    sql = openSqlDatabase<BlockDb>(database.url);
    const set = { tableName: BLOCK_RPC_MIGRATION_TABLE, migrations: blockRpcMigrations };
    await migrateToLatest(sql, set);
    await migrateToLatest(sql, set); // a second run (a restart) applies nothing
    store = new BlockIndexStore(sql.db);
  });

  afterAll(async () => {
    await sql?.close();
    await database?.drop();
  });

  const A = { holder: 'replica-a', ttlMs: 1000 };
  const B = { holder: 'replica-b', ttlMs: 1000 };

  it('gives the lease to one replica until it expires or is released', async () => {
    expect(await store.acquireLease({ ...A, now: 0 })).toBe(true);
    expect(await store.acquireLease({ ...B, now: 500 })).toBe(false);
    expect(await store.acquireLease({ ...A, now: 900 })).toBe(true); // renewed until 1900
    expect(await store.acquireLease({ ...B, now: 1500 })).toBe(false);
    expect(await store.acquireLease({ ...B, now: 2000 })).toBe(true);
    await store.releaseLease('replica-b');
    expect(await store.acquireLease({ ...A, now: 2001 })).toBe(true);
  });

  it('writes nothing for a replica that lost the lease', async () => {
    expect(await store.acquireLease({ ...B, now: 10_000 })).toBe(true);
    await expect(store.append({ ...A, now: 10_001 }, chainOf(0, 2))).rejects.toThrow(
      LeaseLostError,
    );
    await expect(store.deleteAbove({ ...A, now: 10_001 }, -1)).rejects.toThrow(LeaseLostError);
    expect(await store.tip()).toBeUndefined();
  });

  it('appends idempotently and reports the edges', async () => {
    const lease = { ...B, now: 10_002 };
    expect(await store.append(lease, chainOf(0, 4))).toBe('ok');
    expect(await store.append(lease, chainOf(3, 4))).toBe('ok');
    expect(await store.tip()).toEqual({ number: 4, hash: hash(4) });
    expect(await store.lowest()).toEqual({ number: 0, hash: hash(0) });
    expect(await store.hashAt(2)).toBe(hash(2));
    expect(await store.hashAt(9)).toBeUndefined();
  });

  it('refuses a block whose parent is not the stored block before it', async () => {
    const lease = { ...B, now: 10_003 };
    const fork = chainOf(5, 6, 'b').map((b, i) =>
      i === 0 ? { ...b, parentHash: hash(4, 'b') } : b,
    );
    expect(await store.append(lease, fork)).toBe('reorg');
    expect(await store.tip()).toEqual({ number: 4, hash: hash(4) });
  });

  it('counts transactions per UTC day and deletes above a block', async () => {
    const lease = { ...B, now: 10_004 };
    // blocks 0-4 are on 2031-05-01 (12:00 + n hours); 12..14 land on 2031-05-02
    expect(await store.append(lease, chainOf(5, 14, 'a', 2))).toBe('ok');
    const counts = await store.countByDay('2031-04-30', '2031-05-03');
    expect(Object.fromEntries(counts)).toEqual({ '2031-05-01': 5 + 7 * 2, '2031-05-02': 3 * 2 });
    expect(await store.deleteAbove(lease, 11)).toBe(3);
    expect(Object.fromEntries(await store.countByDay('2031-05-02', '2031-05-02'))).toEqual({});
    expect(await store.deleteAbove(lease, -1)).toBe(12);
    expect(await store.tip()).toBeUndefined();
  });
});
