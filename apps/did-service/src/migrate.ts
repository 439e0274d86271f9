/**
 * did-service's migration entry (`dist/migrate.js` of its image, the Kubernetes migration Job):
 * applies its own pending migrations, then Veramo's (typeorm, schema did_veramo), to DATABASE_URL
 * and exits. An entry point like main.ts: the environment is read here once.
 */
import { migrateDatabaseAt, runMigrations } from '@itp/stores';
import { openVeramoDataSource } from './agent/veramo-data-source.js';
import { didMigrations } from './db/did-tables.js';

process.exitCode = await runMigrations('did-service', process.env.DATABASE_URL, async (url) => {
  await migrateDatabaseAt(url, didMigrations);
  // Opening the data source applies Veramo's pending migrations.
  const veramo = await openVeramoDataSource(url, { poolSize: 1 });
  await veramo.destroy();
});
