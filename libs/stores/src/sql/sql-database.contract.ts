import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { sql } from 'kysely';
import type { ColumnType, Generated } from 'kysely';
import { migrateToLatest } from './migrate-to-latest.js';
import type { MigrationSet, SqlDatabase } from './sql-database.js';

/** A small repository schema exercising what services rely on in both dialects. */
export interface ContractDb {
  contract_owner: { id: string; name: string };
  contract_item: {
    id: string;
    owner_id: string;
    label: string;
    hits: ColumnType<number, number, number>;
    /** int8: ms timestamps, block numbers, and beyond 2^53 (comes back as bigint). */
    big: ColumnType<number | bigint, number | bigint, number | bigint>;
    /** Decimal amounts of any size travel as strings. */
    amount: string;
    seq: Generated<number>;
  };
}

export const contractMigrations: MigrationSet = {
  tableName: 'contract_migrations',
  migrations: {
    '0001_owners': {
      up: async (db) => {
        await db.schema
          .createTable('contract_owner')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('name', 'text', (c) => c.notNull())
          .execute();
      },
    },
    '0002_items': {
      up: async (db) => {
        await db.schema
          .createTable('contract_item')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('owner_id', 'text', (c) =>
            c.notNull().references('contract_owner.id').onDelete('cascade'),
          )
          .addColumn('label', 'text', (c) => c.notNull())
          .addColumn('hits', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('big', 'bigint', (c) => c.notNull())
          .addColumn('amount', 'text', (c) => c.notNull().defaultTo('0'))
          .addColumn('seq', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
        await db.schema
          .createIndex('contract_item_owner_idx')
          .on('contract_item')
          .column('owner_id')
          .execute();
      },
    },
  },
};

/**
 * The message of the error a promise rejects with. better-sqlite3 keeps the error class of the
 * first jest module registry that loaded it, so `rejects.toThrow()` would not recognise its errors
 * as Errors in later test files of the same worker; comparing messages works everywhere.
 */
export async function rejectionMessage(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => {
      throw new Error('expected the promise to reject, but it resolved');
    },
    (err: unknown) => String((err as { message?: unknown } | null)?.message ?? err),
  );
}

/**
 * The behaviour every SqlDatabase (both dialects) must show. `factory` opens a connection to a
 * fresh, empty database each time it is called within one test (and to the same database when
 * called twice in a test); `cleanup` runs after each test once every connection is closed.
 * `concurrentConnections`: whether two connections may run transactions at the same time from
 * one process (PostgreSQL: yes; SQLite: no, see openSqlDatabase).
 */
export function sqlDatabaseContract(
  name: string,
  fixture: () => Promise<{ open: () => SqlDatabase<ContractDb>; cleanup: () => Promise<void> }>,
  options: { concurrentConnections: boolean },
): void {
  describe(`SqlDatabase contract: ${name}`, () => {
    let open: () => SqlDatabase<ContractDb>;
    let cleanup: () => Promise<void>;
    let opened: SqlDatabase<ContractDb>[];
    let database: SqlDatabase<ContractDb>;

    const connect = (): SqlDatabase<ContractDb> => {
      const connection = open();
      opened.push(connection);
      return connection;
    };

    beforeEach(async () => {
      ({ open, cleanup } = await fixture());
      opened = [];
      database = connect();
    });

    afterEach(async () => {
      await Promise.all(opened.map((c) => c.close()));
      await cleanup();
    });

    async function appliedMigrations(db: SqlDatabase<ContractDb>, table: string) {
      const result = await sql<{
        name: string;
      }>`select name from ${sql.table(table)} order by name`.execute(db.db);
      return result.rows.map((row) => row.name);
    }

    async function tableExists(db: SqlDatabase<ContractDb>, table: string): Promise<boolean> {
      const tables = await db.db.introspection.getTables();
      return tables.some((t) => t.name === table);
    }

    async function seedOwner(id = 'o1'): Promise<void> {
      await database.db
        .insertInto('contract_owner')
        .values({ id, name: `owner ${id}` })
        .execute();
    }

    it('answers ping and names its dialect', async () => {
      await expect(database.ping()).resolves.toBeUndefined();
      expect(['postgres', 'sqlite']).toContain(database.dialect);
    });

    it('applies migrations once; running them again changes nothing', async () => {
      await migrateToLatest(database, contractMigrations);
      await migrateToLatest(database, contractMigrations);
      expect(await appliedMigrations(database, 'contract_migrations')).toEqual([
        '0001_owners',
        '0002_items',
      ]);
      await seedOwner();
      expect(await database.db.selectFrom('contract_owner').selectAll().execute()).toHaveLength(1);
    });

    it('applies only the new migrations of a grown set', async () => {
      const first: MigrationSet = {
        tableName: contractMigrations.tableName,
        migrations: { '0001_owners': contractMigrations.migrations['0001_owners']! },
      };
      await migrateToLatest(database, first);
      await seedOwner();
      await migrateToLatest(database, contractMigrations);
      expect(await appliedMigrations(database, 'contract_migrations')).toHaveLength(2);
      expect(await database.db.selectFrom('contract_owner').select('id').execute()).toEqual([
        { id: 'o1' },
      ]);
    });

    it('keeps separate migration tables for separate sets in one database', async () => {
      await migrateToLatest(database, contractMigrations);
      const other: MigrationSet = {
        tableName: 'other_service_migrations',
        migrations: {
          '0001_other': {
            up: async (db) => {
              await db.schema
                .createTable('other_thing')
                .addColumn('id', 'text', (c) => c.primaryKey())
                .execute();
            },
          },
        },
      };
      await migrateToLatest(database, other);
      expect(await appliedMigrations(database, 'other_service_migrations')).toEqual(['0001_other']);
      expect(await appliedMigrations(database, 'contract_migrations')).toHaveLength(2);
    });

    it('names the failing migration and leaves none of its batch applied', async () => {
      const broken: MigrationSet = {
        tableName: 'broken_migrations',
        migrations: {
          '0001_ok': {
            up: async (db) => {
              await db.schema
                .createTable('broken_first')
                .addColumn('id', 'text', (c) => c.primaryKey())
                .execute();
            },
          },
          '0002_bad': {
            up: async (db) => {
              await sql`select * from no_such_table`.execute(db);
            },
          },
        },
      };
      await expect(migrateToLatest(database, broken)).rejects.toThrow(/0002_bad/);
      expect(await tableExists(database, 'broken_first')).toBe(false);
      expect(await appliedMigrations(database, 'broken_migrations')).toEqual([]);
    });

    it('rejects an unsafe migration table name', async () => {
      await expect(
        migrateToLatest(database, { tableName: 'x; drop table y', migrations: {} }),
      ).rejects.toThrow(/Invalid migration table name/);
    });

    if (options.concurrentConnections) {
      it('survives two connections migrating at the same time', async () => {
        const second = connect();
        await Promise.all([
          migrateToLatest(database, contractMigrations),
          migrateToLatest(second, contractMigrations),
        ]);
        expect(await appliedMigrations(second, 'contract_migrations')).toEqual([
          '0001_owners',
          '0002_items',
        ]);
      });
    }

    describe('with the schema in place', () => {
      beforeEach(async () => {
        await migrateToLatest(database, contractMigrations);
        await seedOwner();
      });

      const item = (id: string, label: string) => ({
        id,
        owner_id: 'o1',
        label,
        hits: 1,
        big: 1_700_000_000_123,
        amount: '1000000000000000000',
      });

      it('upserts: inserts once, then updates the existing row on conflict', async () => {
        const upsert = (label: string) =>
          database.db
            .insertInto('contract_item')
            .values(item('i1', label))
            .onConflict((oc) =>
              oc.column('id').doUpdateSet((eb) => ({
                label: eb.ref('excluded.label'),
                hits: sql<number>`contract_item.hits + 1`,
              })),
            )
            .execute();
        await upsert('first');
        await upsert('second');
        await upsert('third');
        const rows = await database.db.selectFrom('contract_item').selectAll().execute();
        expect(rows).toHaveLength(1);
        expect(rows[0]).toMatchObject({ id: 'i1', label: 'third', hits: 3 });
      });

      it('does nothing on conflict when asked to', async () => {
        await database.db.insertInto('contract_item').values(item('i1', 'first')).execute();
        const result = await database.db
          .insertInto('contract_item')
          .values(item('i1', 'second'))
          .onConflict((oc) => oc.column('id').doNothing())
          .executeTakeFirst();
        expect(Number(result.numInsertedOrUpdatedRows ?? 0n)).toBe(0);
        const row = await database.db
          .selectFrom('contract_item')
          .select('label')
          .executeTakeFirstOrThrow();
        expect(row.label).toBe('first');
      });

      it('round-trips 64-bit integers: number when exact, bigint beyond 2^53', async () => {
        const values: [string, number | bigint][] = [
          ['ms', 1_700_000_000_123],
          ['max-safe', Number.MAX_SAFE_INTEGER],
          ['min-safe', Number.MIN_SAFE_INTEGER],
          ['beyond', 2n ** 62n + 7n],
          ['max-int8', 2n ** 63n - 1n],
        ];
        for (const [id, big] of values) {
          await database.db
            .insertInto('contract_item')
            .values({ ...item(id, id), big })
            .execute();
        }
        const rows = await database.db
          .selectFrom('contract_item')
          .select(['id', 'big', 'hits', 'amount'])
          .execute();
        const byId = new Map(rows.map((r) => [r.id, r]));
        for (const [id, big] of values) {
          expect(byId.get(id)?.big).toBe(big);
        }
        expect(typeof byId.get('ms')?.hits).toBe('number');
        expect(byId.get('ms')?.amount).toBe('1000000000000000000');
        const filtered = await database.db
          .selectFrom('contract_item')
          .select('id')
          .where('big', '=', 2n ** 62n + 7n)
          .execute();
        expect(filtered).toEqual([{ id: 'beyond' }]);
      });

      it('counts as a number', async () => {
        await database.db.insertInto('contract_item').values(item('i1', 'a')).execute();
        await database.db.insertInto('contract_item').values(item('i2', 'b')).execute();
        const { n } = await database.db
          .selectFrom('contract_item')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow();
        expect(n).toBe(2);
      });

      it('enforces foreign keys and cascades deletes', async () => {
        expect(
          await rejectionMessage(
            database.db
              .insertInto('contract_item')
              .values({ ...item('i1', 'a'), owner_id: 'nobody' })
              .execute(),
          ),
        ).toMatch(/foreign key/i);
        await database.db.insertInto('contract_item').values(item('i2', 'b')).execute();
        await database.db.deleteFrom('contract_owner').where('id', '=', 'o1').execute();
        expect(await database.db.selectFrom('contract_item').selectAll().execute()).toEqual([]);
      });

      it('rolls a failed transaction back', async () => {
        expect(
          await rejectionMessage(
            database.db.transaction().execute(async (trx) => {
              await trx.insertInto('contract_item').values(item('i1', 'a')).execute();
              await trx.insertInto('contract_item').values(item('i1', 'duplicate')).execute();
            }),
          ),
        ).toMatch(/unique|duplicate key/i);
        expect(await database.db.selectFrom('contract_item').selectAll().execute()).toEqual([]);
      });

      it('sees one connection’s committed writes from another', async () => {
        const second = connect();
        await database.db.insertInto('contract_item').values(item('i1', 'a')).execute();
        const row = await second.db
          .selectFrom('contract_item')
          .select('label')
          .where('id', '=', 'i1')
          .executeTakeFirst();
        expect(row?.label).toBe('a');
      });
    });
  });
}
