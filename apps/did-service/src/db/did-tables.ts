import type { MigrationSet } from '@itp/stores';
import type { Kysely } from 'kysely';

/** did-service's own tables (Veramo's are managed by typeorm, see agent/veramo-data-source.ts). */
export interface DidTables {
  did_holder_bindings: {
    /** The holder DID in canonical form (did:ethr:<EIP-55 address>). */
    did: string;
    user_id: string;
    /** ISO 8601 UTC. */
    bound_at: string;
  };
}

export const didMigrations: MigrationSet = {
  tableName: 'did_service_migrations',
  migrations: {
    '0001_holder_bindings': {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      async up(db: Kysely<any>): Promise<void> {
        await db.schema
          .createTable('did_holder_bindings')
          .addColumn('did', 'varchar(128)', (c) => c.primaryKey())
          .addColumn('user_id', 'varchar(256)', (c) => c.notNull())
          .addColumn('bound_at', 'varchar(32)', (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex('did_holder_bindings_user_id')
          .on('did_holder_bindings')
          .column('user_id')
          .execute();
      },
    },
  },
};
