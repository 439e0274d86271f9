import type { Kysely, Migration } from 'kysely';

/** Name of the table that records the block API's applied migrations. */
export const BLOCK_RPC_MIGRATION_TABLE = 'block_rpc_migrations';

/** The block API's migrations (PostgreSQL and SQLite alike). Keys sort in order. */
export const blockRpcMigrations: Record<string, Migration> = {
  '0001_block_index': {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('block_index')
        .addColumn('number', 'bigint', (c) => c.primaryKey())
        .addColumn('hash', 'varchar(66)', (c) => c.notNull())
        .addColumn('parent_hash', 'varchar(66)', (c) => c.notNull())
        .addColumn('timestamp', 'bigint', (c) => c.notNull())
        .addColumn('day', 'varchar(10)', (c) => c.notNull())
        .addColumn('tx_count', 'integer', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('block_index_day_idx')
        .on('block_index')
        .columns(['day', 'tx_count'])
        .execute();
      await db.schema
        .createTable('block_index_lease')
        .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('holder', 'varchar(64)', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('block_index_lease').execute();
      await db.schema.dropTable('block_index').execute();
    },
  },
};
