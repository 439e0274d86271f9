import type { Kysely, Migration } from 'kysely';

/**
 * The durable-data port: one Kysely instance over PostgreSQL (`postgres://…`) in production or
 * SQLite (`sqlite:<file>` / `sqlite::memory:`) in dev. Each service owns its tables and its
 * migrations (own migration table), so services may share one database or use their own.
 */
export type SqlDialectName = 'postgres' | 'sqlite';

export interface SqlDatabase<DB> {
  readonly db: Kysely<DB>;
  readonly dialect: SqlDialectName;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface MigrationSet {
  /** Name of the table that records this service's applied migrations, e.g. `block_rpc_migrations`. */
  tableName: string;
  /** Ordered by key: use `0001_name` style keys. */
  migrations: Record<string, Migration>;
}
