import type { Kysely, Migration } from 'kysely';
import { oneTimeMarksMigration, type MigrationSet } from '@itp/stores';

/** One-time marks of the rules Redis must not decide alone (docs/api.md §8, §9). */
const authOneTimeMarks = oneTimeMarksMigration('auth_one_time_marks');

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
  '0002_one_time_marks': {
    // Durable one-time rules (docs/api.md §2): a used login VP, an approved web-site login.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('auth_vp_uses')
        .addColumn('id_hash', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('auth_vp_uses_expires_at')
        .on('auth_vp_uses')
        .column('expires_at')
        .execute();
      await db.schema
        .createTable('auth_login_approvals')
        .addColumn('id', 'varchar(80)', (c) => c.primaryKey())
        .addColumn('client_id', 'varchar(256)', (c) => c.notNull())
        .addColumn('prefix', 'text', (c) => c.notNull())
        .addColumn('user_id', 'varchar(256)', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('consumed_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('auth_login_approvals_expires_at')
        .on('auth_login_approvals')
        .column('expires_at')
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('auth_login_approvals').execute();
      await db.schema.dropTable('auth_vp_uses').execute();
    },
  },
  '0003_oidc': {
    // OpenID Connect provider (docs/api.md §9): registered redirect URIs per relying party, and
    // how a web-site login was approved (the id_token's amr), also after Redis lost the request.
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('auth_clients')
        .addColumn('redirect_uris', 'text', (c) => c.notNull().defaultTo('[]'))
        .execute();
      await db.schema
        .alterTable('auth_clients')
        .addColumn('post_logout_redirect_uris', 'text', (c) => c.notNull().defaultTo('[]'))
        .execute();
      await db.schema.alterTable('auth_login_approvals').addColumn('method', 'text').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('auth_login_approvals').dropColumn('method').execute();
      await db.schema.alterTable('auth_clients').dropColumn('post_logout_redirect_uris').execute();
      await db.schema.alterTable('auth_clients').dropColumn('redirect_uris').execute();
    },
  },
  '0004_linked_addresses': {
    // Sign-In with Ethereum (docs/api.md §11): one address, one user.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('auth_linked_addresses')
        .addColumn('address', 'varchar(42)', (c) => c.primaryKey())
        .addColumn('user_id', 'varchar(256)', (c) => c.notNull())
        .addColumn('linked_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('auth_linked_addresses_user_id')
        .on('auth_linked_addresses')
        .column('user_id')
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('auth_linked_addresses').execute();
    },
  },
  '0005_backchannel_logout': {
    // OpenID Connect Back-Channel Logout 1.0 (docs/api.md §9): where a relying party receives
    // logout tokens; null for every existing client.
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('auth_clients')
        .addColumn('backchannel_logout_uri', 'text')
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('auth_clients').dropColumn('backchannel_logout_uri').execute();
    },
  },
  '0006_account_key_ring': {
    // One account, one key ring (docs/api.md §12): the user's security epochs, the last login
    // per method, when an approval was given, and the credential revocations a reset asks of
    // did-service (an outbox delivered until did-service acknowledges it).
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('auth_users')
        .addColumn('tokens_valid_after', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('auth_users')
        .addColumn('keys_valid_after', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('auth_login_approvals')
        .addColumn('approved_at', 'bigint')
        .execute();
      await db.schema
        .createTable('auth_user_logins')
        .addColumn('user_id', 'varchar(256)', (c) => c.notNull())
        .addColumn('method', 'varchar(32)', (c) => c.notNull())
        .addColumn('last_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('auth_user_logins_pk', ['user_id', 'method'])
        .execute();
      await db.schema
        .createTable('auth_credential_revocations')
        .addColumn('user_id', 'varchar(256)', (c) => c.primaryKey())
        .addColumn('issued_before', 'bigint', (c) => c.notNull())
        .addColumn('requested_at', 'bigint', (c) => c.notNull())
        .addColumn('delivered_at', 'bigint')
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('auth_credential_revocations').execute();
      await db.schema.dropTable('auth_user_logins').execute();
      await db.schema.alterTable('auth_login_approvals').dropColumn('approved_at').execute();
      await db.schema.alterTable('auth_users').dropColumn('keys_valid_after').execute();
      await db.schema.alterTable('auth_users').dropColumn('tokens_valid_after').execute();
    },
  },
  '0007_redis_may_go_back': {
    // Redis may go back in time (docs/adr/0024, amendment): the one-time marks of OpenID Connect
    // codes and refresh tokens and of OpenID4VP responses, and the durable copies of refresh
    // tokens and of the grants with offline_access they belong to.
    async up(db: Kysely<unknown>) {
      await authOneTimeMarks.up(db);
      await db.schema
        .createTable('auth_oidc_records')
        .addColumn('model', 'varchar(32)', (c) => c.notNull())
        .addColumn('id', 'varchar(128)', (c) => c.notNull())
        .addColumn('grant_id', 'varchar(128)')
        .addColumn('account_id', 'varchar(256)')
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('auth_oidc_records_pk', ['model', 'id'])
        .execute();
      await db.schema
        .createIndex('auth_oidc_records_grant_id')
        .on('auth_oidc_records')
        .column('grant_id')
        .execute();
      await db.schema
        .createIndex('auth_oidc_records_expires_at')
        .on('auth_oidc_records')
        .column('expires_at')
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('auth_oidc_records').execute();
      await authOneTimeMarks.down!(db);
    },
  },
  '0008_id_token_signing_alg': {
    // RS256 id_tokens for the sites registered with it (OpenID Connect Discovery 1.0 §3, docs/api.md
    // §9); ES256 for every existing client.
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('auth_clients')
        .addColumn('id_token_signing_alg', 'varchar(16)', (c) => c.notNull().defaultTo('ES256'))
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('auth_clients').dropColumn('id_token_signing_alg').execute();
    },
  },
  '0009_passkeys': {
    // Passkeys (WebAuthn, docs/api.md §13): a user's discoverable credentials (public keys and
    // signature counters; a credential id is at most 1023 bytes, 1364 base64url characters).
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('auth_passkeys')
        .addColumn('id', 'varchar(1400)', (c) => c.primaryKey())
        .addColumn('user_id', 'varchar(256)', (c) => c.notNull())
        .addColumn('name', 'varchar(128)', (c) => c.notNull())
        .addColumn('public_key', 'text', (c) => c.notNull())
        .addColumn('counter', 'bigint', (c) => c.notNull())
        .addColumn('transports', 'text', (c) => c.notNull())
        .addColumn('device_type', 'varchar(16)', (c) => c.notNull())
        .addColumn('backed_up', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_used_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('auth_passkeys_user_id')
        .on('auth_passkeys')
        .column('user_id')
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('auth_passkeys').execute();
    },
  },
};

export const authMigrations: MigrationSet = {
  tableName: 'auth_service_migrations',
  migrations,
};
