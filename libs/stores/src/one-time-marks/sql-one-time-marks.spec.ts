import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { ServiceUnavailableError } from '@itp/errors';
import { createTestDatabase } from '@itp/testing';
import { migrateToLatest } from '../sql/migrate-to-latest.js';
import { openSqlDatabase } from '../sql/open-sql-database.js';
import type { SqlDatabase } from '../sql/sql-database.js';
import { oneTimeMarksContract } from './one-time-marks.contract.js';
import { oneTimeKey } from './one-time-marks.js';
import { oneTimeMarkId, oneTimeMarksMigration, SqlOneTimeMarks } from './sql-one-time-marks.js';

const GRACE_MS = 3_600_000;
const TABLE = 'test_one_time_marks';

type MarksDb = Record<string, { id_hash: string; expires_at: number }>;

async function migrated(database: SqlDatabase<MarksDb>): Promise<void> {
  await migrateToLatest(database, {
    tableName: 'test_marks_migrations',
    migrations: { '0001_marks': oneTimeMarksMigration(TABLE) },
  });
}

/** Two adapters over one database (as two replicas), with small cleanup batches. */
function views(database: SqlDatabase<MarksDb>, other: SqlDatabase<MarksDb> = database) {
  return {
    first: new SqlOneTimeMarks(database, { table: TABLE, dropBatch: 5 }),
    second: new SqlOneTimeMarks(other, { table: TABLE, dropBatch: 5 }),
    storedKeys: async () =>
      (await database.db.selectFrom(TABLE).select('id_hash').execute()).map((r) => r.id_hash),
  };
}

oneTimeMarksContract(
  'SQL on a SQLite file',
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'itp-marks-'));
    const database = openSqlDatabase<MarksDb>(`sqlite:${join(dir, 'marks.sqlite')}`);
    await migrated(database);
    return {
      ...views(database),
      cleanup: async () => {
        await database.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
  { graceMs: GRACE_MS },
);

oneTimeMarksContract(
  'SQL on PostgreSQL (two connection pools)',
  async () => {
    const test = await createTestDatabase();
    const a = openSqlDatabase<MarksDb>(test.url, { poolSize: 4 });
    const b = openSqlDatabase<MarksDb>(test.url, { poolSize: 4 });
    await migrated(a);
    return {
      ...views(a, b),
      cleanup: async () => {
        await Promise.all([a.close(), b.close()]);
        await test.drop();
      },
    };
  },
  { graceMs: GRACE_MS },
);

describe('SqlOneTimeMarks', () => {
  it('stores a key as the SHA-256 (hex) of its namespaced input', () => {
    expect(oneTimeMarkId(oneTimeKey('siwe-nonce', 'abc'))).toBe(
      createHash('sha256').update('siwe-nonce\u0000abc').digest('hex'),
    );
  });

  it('drops expired rows a few at a time, never the live ones', async () => {
    const database = openSqlDatabase<MarksDb>('sqlite::memory:');
    try {
      await migrated(database);
      const { first, storedKeys } = views(database);
      const now = 1_800_000_000_000;
      for (let i = 0; i < 12; i += 1) await first.mark(`old\u0000${i}`, now, now - 1000);
      await first.mark('live\u00001', now + 10 * GRACE_MS, now);
      const afterGrace = now + GRACE_MS + 1;
      await first.mark('new\u00001', afterGrace + 1000, afterGrace);
      expect(await storedKeys()).toHaveLength(13 - 5 + 1);
      await first.mark('new\u00002', afterGrace + 1000, afterGrace);
      await first.mark('new\u00003', afterGrace + 1000, afterGrace);
      expect(await storedKeys()).toHaveLength(4);
      expect(await first.isMarked('live\u00001', afterGrace)).toBe(true);
    } finally {
      await database.close();
    }
  });

  it('answers a database that is gone with 503, never with a mark', async () => {
    const test = await createTestDatabase();
    const database = openSqlDatabase<MarksDb>(test.url, { poolSize: 1 });
    await migrated(database);
    const marks = new SqlOneTimeMarks(database, { table: TABLE });
    await database.close();
    await test.drop();
    const failure = await marks.mark('k\u00001', Date.now() + 1000, Date.now()).catch((e) => e);
    expect(failure).toBeInstanceOf(ServiceUnavailableError);
  });

  it('refuses an unsafe table name', () => {
    expect(() => oneTimeMarksMigration('x; drop table y')).toThrow(/table name/);
    const database = {} as SqlDatabase<MarksDb>;
    expect(() => new SqlOneTimeMarks(database, { table: 'a b' })).toThrow(/table name/);
  });
});
