import { migrateToLatest } from './migrate-to-latest.js';
import { openSqlDatabase } from './open-sql-database.js';
import type { MigrationSet } from './sql-database.js';

/** Where a migration run writes its one line of outcome (the process's streams by default). */
export interface MigrationRunOutput {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

/**
 * The body of each app's migration entry (`apps/<app>/src/migrate.ts`, `dist/migrate.js` of its
 * image: the Kubernetes migration Job, an upgrade step): applies the app's pending migrations to
 * the database at `databaseUrl` and reports, so that a schema change runs once, before the new
 * pods roll out, and fails visibly. The services still migrate at start (a no-op after the Job;
 * replicas starting at once are serialised by the migration locks).
 *
 * Returns the exit code of the entry: 0 applied (or nothing pending), 1 a migration failed,
 * 2 no database URL.
 */
export async function runMigrations(
  app: string,
  databaseUrl: string | undefined,
  migrate: (databaseUrl: string) => Promise<void>,
  output: MigrationRunOutput = process,
): Promise<number> {
  if (!databaseUrl) {
    output.stderr.write(`${app} migrate: DATABASE_URL is required\n`);
    return 2;
  }
  try {
    await migrate(databaseUrl);
    output.stdout.write(`${app}: migrations applied\n`);
    return 0;
  } catch (err) {
    // The message names the failing migration; the URL (and its password) is never printed.
    output.stderr.write(`${app} migrate: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}

/** Opens the database at `url`, applies the set's pending migrations, closes it. */
export async function migrateDatabaseAt(url: string, set: MigrationSet): Promise<void> {
  const database = openSqlDatabase(url);
  try {
    await migrateToLatest(database, set);
  } finally {
    await database.close();
  }
}
