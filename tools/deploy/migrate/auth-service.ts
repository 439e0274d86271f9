/** auth-service's migration Job entry (dist/migrate.js of its image): see run-migrations.ts. */
import { migrateToLatest, openSqlDatabase } from '@itp/stores';
import { authMigrations } from '../../../apps/auth-service/src/db/migrations.js';
import { runMigrations } from './run-migrations.js';

await runMigrations('auth-service', async (url) => {
  const database = openSqlDatabase(url);
  try {
    await migrateToLatest(database, authMigrations);
  } finally {
    await database.close();
  }
});
