import { createHash } from 'node:crypto';
import type { Kysely, Migration } from 'kysely';
import type { SqlDatabase } from '../sql/sql-database.js';
import { toStoreError } from '../unavailable.js';
import type { OneTimeMarks } from './one-time-marks.js';

/** A row of a one-time-marks table: the SHA-256 of the key, and until when it is kept. */
interface MarkRow {
  /** SHA-256 (hex) of the namespaced key. */
  id_hash: string;
  /** Epoch ms. */
  expires_at: number;
}

type MarksDb = Record<string, MarkRow>;

const TABLE_NAME = /^[a-z_][a-z0-9_]{0,50}$/;

function checkedTable(table: string): string {
  if (!TABLE_NAME.test(table)) {
    throw new Error(`Invalid one-time-marks table name "${table}" (use [a-z0-9_])`);
  }
  return table;
}

/** What a key is stored as: its SHA-256, hex (the key itself never reaches the database). */
export function oneTimeMarkId(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/**
 * The migration that creates a one-time-marks table; an app adds it to its own migrations (each
 * app owns its tables), e.g. `'0007_…': oneTimeMarksMigration('auth_one_time_marks')`. Portable
 * DDL: `id_hash` varchar(64) primary key, `expires_at` bigint (epoch ms) with an index.
 */
export function oneTimeMarksMigration(table: string): Migration {
  const name = checkedTable(table);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable(name)
        .addColumn('id_hash', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex(`${name}_expires_at`).on(name).column('expires_at').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable(name).execute();
    },
  };
}

export interface SqlOneTimeMarksOptions {
  /** The app's table, made by oneTimeMarksMigration. */
  table: string;
  /**
   * How long a mark is kept past its expiry (default an hour): replicas' clocks may disagree by
   * less than that, so a mark never disappears while another replica would still accept the use.
   */
  graceMs?: number;
  /** How many expired rows one mark drops at most (default 100): cleanup a few at a time. */
  dropBatch?: number;
}

/**
 * OneTimeMarks on SQL (Kysely over PostgreSQL or SQLite). A mark is one INSERT … ON CONFLICT: of
 * any number of concurrent marks of one key on any replica, exactly one inserts (a unique
 * primary key decides, not a read). A row is kept until `expiresAt` + grace; an expired row
 * counts as absent (a mark of its key succeeds again, updating it in place) and is dropped a few
 * at a time by later marks. A database outage is a ServiceUnavailableError (503), never a yes.
 */
export class SqlOneTimeMarks implements OneTimeMarks {
  private readonly table: string;
  private readonly graceMs: number;
  private readonly dropBatch: number;

  constructor(
    // The app's table types do not matter here: the marks table is named at run time.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    private readonly database: SqlDatabase<any>,
    options: SqlOneTimeMarksOptions,
  ) {
    this.table = checkedTable(options.table);
    this.graceMs = options.graceMs ?? 3_600_000;
    this.dropBatch = options.dropBatch ?? 100;
  }

  private get db(): Kysely<MarksDb> {
    return this.database.db as Kysely<MarksDb>;
  }

  async mark(key: string, expiresAt: number, now: number): Promise<boolean> {
    const cutoff = now - this.graceMs;
    return this.call(async () => {
      await this.dropExpired(cutoff);
      const table = this.table;
      const result = await this.db
        .insertInto(table)
        .values({ id_hash: oneTimeMarkId(key), expires_at: expiresAt })
        .onConflict((oc) =>
          oc
            .column('id_hash')
            .doUpdateSet((eb) => ({ expires_at: eb.ref('excluded.expires_at') }))
            // Only a mark that is no longer kept is taken again.
            .where(`${table}.expires_at`, '<', cutoff),
        )
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
    });
  }

  async isMarked(key: string, now: number): Promise<boolean> {
    return this.call(async () => {
      const row = await this.db
        .selectFrom(this.table)
        .select('id_hash')
        .where('id_hash', '=', oneTimeMarkId(key))
        .where('expires_at', '>=', now - this.graceMs)
        .executeTakeFirst();
      return row !== undefined;
    });
  }

  private async dropExpired(cutoff: number): Promise<void> {
    const table = this.table;
    await this.db
      .deleteFrom(table)
      .where('id_hash', 'in', (eb) =>
        eb
          .selectFrom(table)
          .select('id_hash')
          .where('expires_at', '<', cutoff)
          .limit(this.dropBatch),
      )
      .execute();
  }

  private async call<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      throw toStoreError('database', err);
    }
  }
}
