import { describe, expect, it } from '@jest/globals';
import {
  migrateToLatest,
  oneTimeKey,
  oneTimeMarkId,
  openSqlDatabase,
  type SqlDatabase,
} from '@itp/stores';
import { oneTimeMarksContract } from '@itp/stores/testing';
import { createTestDatabase } from '@itp/testing';
import type { AuthDatabase } from '../db/database.js';
import { authMigrations } from '../db/migrations.js';
import { OidcSqlStatements } from './oidc-sql-side.js';

const GRACE_MS = 3_600_000;

async function sqlite(): Promise<SqlDatabase<AuthDatabase>> {
  const database = openSqlDatabase<AuthDatabase>('sqlite::memory:');
  await migrateToLatest(database, authMigrations);
  return database;
}

const storedKeys = (database: SqlDatabase<AuthDatabase>) => async () =>
  (await database.db.selectFrom('auth_one_time_marks').select('id_hash').execute()).map(
    (r) => r.id_hash,
  );

// The marks keep SqlOneTimeMarks' contract (the rows of one table, written by both), swept on
// every write here so that the contract's "a later mark drops the expired row" holds at once.
oneTimeMarksContract(
  'the OIDC adapter on SQLite',
  async () => {
    const database = await sqlite();
    return {
      first: new OidcSqlStatements(database, { sweepEvery: 1 }).marks,
      second: new OidcSqlStatements(database, { sweepEvery: 1 }).marks,
      storedKeys: storedKeys(database),
      cleanup: () => database.close(),
    };
  },
  { graceMs: GRACE_MS },
);

oneTimeMarksContract(
  'the OIDC adapter on PostgreSQL (two connection pools)',
  async () => {
    const test = await createTestDatabase();
    const a = openSqlDatabase<AuthDatabase>(test.url, { poolSize: 4 });
    const b = openSqlDatabase<AuthDatabase>(test.url, { poolSize: 4 });
    await migrateToLatest(a, authMigrations);
    return {
      first: new OidcSqlStatements(a, { sweepEvery: 1 }).marks,
      second: new OidcSqlStatements(b, { sweepEvery: 1 }).marks,
      storedKeys: storedKeys(a),
      cleanup: async () => {
        await Promise.all([a.close(), b.close()]);
        await test.drop();
      },
    };
  },
  { graceMs: GRACE_MS },
);

const setups: Array<
  [string, () => Promise<{ databases: SqlDatabase<AuthDatabase>[]; drop(): Promise<void> }>]
> = [
  [
    'SQLite',
    async () => {
      const database = await sqlite();
      return { databases: [database, database], drop: () => database.close() };
    },
  ],
  [
    'PostgreSQL (one statement)',
    async () => {
      const test = await createTestDatabase();
      const a = openSqlDatabase<AuthDatabase>(test.url, { poolSize: 4 });
      const b = openSqlDatabase<AuthDatabase>(test.url, { poolSize: 4 });
      await migrateToLatest(a, authMigrations);
      return {
        databases: [a, b],
        drop: async () => {
          await Promise.all([a.close(), b.close()]);
          await test.drop();
        },
      };
    },
  ],
];

describe.each(setups)('OidcSqlStatements.useOnce on %s', (_name, open) => {
  const now = Date.now();
  const copyOf = async (database: SqlDatabase<AuthDatabase>, id: string) =>
    database.db
      .selectFrom('auth_oidc_records')
      .select('id')
      .where('model', '=', 'RefreshToken')
      .where('id', '=', id)
      .executeTakeFirst();

  it('takes the mark and drops the durable copy together: of concurrent uses on two replicas, one', async () => {
    const { databases, drop } = await open();
    const [a, b] = databases.map((d) => new OidcSqlStatements(d)) as [
      OidcSqlStatements,
      OidcSqlStatements,
    ];
    const record = { payload: { accountId: 'alice' }, grantId: 'g', expiresAt: now + 60_000 };
    await a.records.save('RefreshToken', 'rt-1', record, now);
    await a.records.save('RefreshToken', 'rt-2', record, now);
    const key = oneTimeKey('oidc', 'RefreshToken', 'rt-1');
    const copy = { model: 'RefreshToken', id: 'rt-1' };
    const uses = await Promise.all([
      a.useOnce(key, now + 60_000, now, copy),
      b.useOnce(key, now + 60_000, now, copy),
      a.useOnce(key, now + 60_000, now, copy),
    ]);
    expect(uses.filter(Boolean)).toHaveLength(1);
    expect(await copyOf(databases[0]!, 'rt-1')).toBeUndefined();
    expect(await a.marks.isMarked(key, now)).toBe(true);
    // A refused use leaves another token's copy alone (the copy goes only with the mark).
    await a.records.save('RefreshToken', 'rt-1', record, now); // Redis-era copy written back
    expect(await b.useOnce(key, now + 60_000, now, copy)).toBe(false);
    expect(await copyOf(databases[0]!, 'rt-1')).toMatchObject({ id: 'rt-1' });
    expect(await copyOf(databases[0]!, 'rt-2')).toMatchObject({ id: 'rt-2' });
    await drop();
  });

  it('drops expired marks and copies within a sweep period of writes, never live ones', async () => {
    const { databases, drop } = await open();
    const database = databases[0]!;
    const side = new OidcSqlStatements(database, { sweepEvery: 4 });
    const old = now - 2 * GRACE_MS;
    for (let i = 0; i < 6; i += 1) {
      await database.db
        .insertInto('auth_one_time_marks')
        .values({ id_hash: oneTimeMarkId(`expired-${i}`), expires_at: old })
        .execute();
      await side.records.save('RefreshToken', `expired-${i}`, { payload: {}, expiresAt: old }, old);
    }
    for (let i = 0; i < 4; i += 1) {
      await side.useOnce(oneTimeKey('oidc', 'AuthorizationCode', `c${i}`), now + 60_000, now);
    }
    const marks = await database.db.selectFrom('auth_one_time_marks').select('id_hash').execute();
    expect(marks.map((m) => m.id_hash).sort()).toEqual(
      [0, 1, 2, 3]
        .map((i) => oneTimeMarkId(oneTimeKey('oidc', 'AuthorizationCode', `c${i}`)))
        .sort(),
    );
    expect(await database.db.selectFrom('auth_oidc_records').select('id').execute()).toEqual([]);
    await drop();
  });
});
