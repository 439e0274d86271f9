/**
 * The body of each image's `dist/migrate.js` (the Kubernetes migration Job, an upgrade step):
 * applies the app's pending migrations to DATABASE_URL and exits, so that a schema change runs
 * once, before the new pods roll out, and fails visibly. The services still migrate at start (a
 * no-op after the Job; replicas starting at once are serialised by the migration locks).
 */
export async function runMigrations(
  app: string,
  migrate: (databaseUrl: string) => Promise<void>,
): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    process.stderr.write(`${app} migrate: DATABASE_URL is required\n`);
    process.exit(2);
  }
  try {
    await migrate(databaseUrl);
    process.stdout.write(`${app}: migrations applied\n`);
  } catch (err) {
    // The message names the failing migration; the URL (and its password) is never printed.
    process.stderr.write(`${app} migrate: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  }
}
