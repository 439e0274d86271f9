import { describeMigrateEntry } from '@itp/testing';
import { tokenMigrations } from './db/migrations.js';

describeMigrateEntry({
  app: 'token-rpc',
  entry: new URL('./migrate.ts', import.meta.url),
  tables: [{ table: tokenMigrations.tableName, names: Object.keys(tokenMigrations.migrations) }],
});
