import { describeMigrateEntry } from '@itp/testing';
import { BLOCK_RPC_MIGRATION_TABLE, blockRpcMigrations } from './db/migrations.js';

describeMigrateEntry({
  app: 'block-rpc',
  entry: new URL('./migrate.ts', import.meta.url),
  tables: [{ table: BLOCK_RPC_MIGRATION_TABLE, names: Object.keys(blockRpcMigrations) }],
});
