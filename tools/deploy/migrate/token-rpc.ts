/** token-rpc's migration Job entry (dist/migrate.js of its image): see run-migrations.ts. */
import { migrateToLatest, openSqlDatabase } from '@itp/stores';
import { tokenMigrations } from '../../../apps/token-rpc/src/db/migrations.js';
import { runMigrations } from './run-migrations.js';

await runMigrations('token-rpc', async (url) => {
  const database = openSqlDatabase(url);
  try {
    await migrateToLatest(database, tokenMigrations);
  } finally {
    await database.close();
  }
});
