import { Migrator } from 'kysely';
import type { Kysely, Migration, MigrationProvider } from 'kysely';
import type { MigrationSet, SqlDatabase } from './sql-database.js';

const TABLE_NAME = /^[a-z_][a-z0-9_]{0,50}$/;

/**
 * Applies the set's pending migrations, in key order, recording them in the set's own table
 * (`<tableName>`, lock row in `<tableName>_lock`) so that several services can share a database.
 * Pending migrations run in one transaction on both dialects: when one fails, none of the batch
 * stays applied and the error names the failing migration. Concurrent callers (several replicas
 * starting at once) are serialised by Kysely's migration lock (a PostgreSQL advisory lock).
 */
export async function migrateToLatest(
  // The database's table types do not matter here: migrations work on the untyped schema.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  database: SqlDatabase<any>,
  set: MigrationSet,
): Promise<void> {
  if (!TABLE_NAME.test(set.tableName)) {
    throw new Error(
      `Invalid migration table name "${set.tableName}" (use [a-z0-9_], e.g. auth_migrations)`,
    );
  }
  const provider: MigrationProvider = {
    getMigrations: async (): Promise<Record<string, Migration>> => set.migrations,
  };
  const migrator = new Migrator({
    db: database.db as Kysely<unknown>,
    provider,
    migrationTableName: set.tableName,
    migrationLockTableName: `${set.tableName}_lock`,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error === undefined) return;
  const failed = results?.find((result) => result.status === 'Error');
  const reason = error instanceof Error ? error.message : String(error);
  throw new Error(
    failed
      ? `Migration "${failed.migrationName}" (${set.tableName}) failed: ${reason}`
      : `Migrations of ${set.tableName} failed: ${reason}`,
    { cause: error },
  );
}
