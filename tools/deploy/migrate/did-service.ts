/**
 * did-service's migration Job entry (dist/migrate.js of its image): its own tables, then Veramo's
 * (typeorm, schema did_veramo). See run-migrations.ts.
 */
import { migrateToLatest, openSqlDatabase } from '@itp/stores';
import { openVeramoDataSource } from '../../../apps/did-service/src/agent/veramo-data-source.js';
import { didMigrations } from '../../../apps/did-service/src/db/did-tables.js';
import { runMigrations } from './run-migrations.js';

await runMigrations('did-service', async (url) => {
  const database = openSqlDatabase(url);
  try {
    await migrateToLatest(database, didMigrations);
  } finally {
    await database.close();
  }
  const veramo = await openVeramoDataSource(url, { poolSize: 1 });
  await veramo.destroy();
});
