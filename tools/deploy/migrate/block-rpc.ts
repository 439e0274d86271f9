/** block-rpc's migration Job entry (dist/migrate.js of its image): see run-migrations.ts. */
import { migrateToLatest, openSqlDatabase } from '@itp/stores';
import {
  BLOCK_RPC_MIGRATION_TABLE,
  blockRpcMigrations,
} from '../../../apps/block-rpc/src/db/migrations.js';
import { runMigrations } from './run-migrations.js';

await runMigrations('block-rpc', async (url) => {
  const database = openSqlDatabase(url);
  try {
    await migrateToLatest(database, {
      tableName: BLOCK_RPC_MIGRATION_TABLE,
      migrations: blockRpcMigrations,
    });
  } finally {
    await database.close();
  }
});
