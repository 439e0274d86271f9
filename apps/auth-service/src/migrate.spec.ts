import { describeMigrateEntry } from '@itp/testing';
import { authMigrations } from './db/migrations.js';

describeMigrateEntry({
  app: 'auth-service',
  entry: new URL('./migrate.ts', import.meta.url),
  tables: [{ table: authMigrations.tableName, names: Object.keys(authMigrations.migrations) }],
});
