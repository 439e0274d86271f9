import type { Kysely, Migration } from 'kysely';
import type { MigrationSet } from '@itp/stores';

/** Portable DDL: text, bigint (epoch ms) and integer flags work alike on PostgreSQL and SQLite. */
const migrations: Record<string, Migration> = {
  '0001_users_and_clients': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('auth_users')
        .addColumn('id', 'varchar(256)', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('tel_no', 'text')
        .addColumn('email', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('auth_clients')
        .addColumn('id', 'varchar(256)', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('secret_hash', 'text', (c) => c.notNull())
        .addColumn('request_id_prefixes', 'text', (c) => c.notNull())
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('auth_clients').execute();
      await db.schema.dropTable('auth_users').execute();
    },
  },
};

export const authMigrations: MigrationSet = {
  tableName: 'auth_service_migrations',
  migrations,
};
