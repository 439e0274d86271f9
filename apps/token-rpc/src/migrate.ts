/**
 * token-rpc's migration entry (`dist/migrate.js` of its image, the Kubernetes migration Job):
 * applies its pending migrations to DATABASE_URL and exits. An entry point like main.ts: the
 * environment is read here once.
 */
import { migrateDatabaseAt, runMigrations } from '@itp/stores';
import { tokenMigrationSet } from './db/migrations.js';

process.exitCode = await runMigrations('token-rpc', process.env.DATABASE_URL, (url) =>
  migrateDatabaseAt(
    url,
    tokenMigrationSet((message) => process.stdout.write(`token-rpc: ${message}\n`)),
  ),
);
