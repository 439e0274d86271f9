import { migrations as veramoMigrations } from '@veramo/data-store';
import { describeMigrateEntry } from '@itp/testing';
import { VERAMO_MIGRATIONS_TABLE, VERAMO_PG_SCHEMA } from './agent/veramo-data-source.js';
import { didMigrations } from './db/did-tables.js';

describeMigrateEntry({
  app: 'did-service',
  entry: new URL('./migrate.ts', import.meta.url),
  tables: [
    { table: didMigrations.tableName, names: Object.keys(didMigrations.migrations) },
    // Veramo's own migrations (typeorm): their number.
    { table: `${VERAMO_PG_SCHEMA}.${VERAMO_MIGRATIONS_TABLE}`, count: veramoMigrations.length },
  ],
});
