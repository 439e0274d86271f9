import { sql, type Kysely, type Migration } from 'kysely';
import type { MigrationSet } from '@itp/stores';

// Migrations work on the untyped schema: the table types describe the latest state only.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

const m0001: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('wallet_keys')
      .addColumn('address', 'varchar(42)', (c) => c.primaryKey())
      .addColumn('private_key_sealed', 'text', (c) => c.notNull())
      .addColumn('mnemonic_sealed', 'text', (c) => c.notNull())
      .addColumn('secret_key_sealed', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('token_transactions')
      .addColumn('hash', 'varchar(66)', (c) => c.primaryKey())
      .addColumn('kind', 'varchar(32)', (c) => c.notNull())
      .addColumn('from_address', 'varchar(42)', (c) => c.notNull())
      .addColumn('to_address', 'varchar(42)')
      .addColumn('contract_address', 'varchar(42)')
      .addColumn('nonce', 'bigint', (c) => c.notNull())
      .addColumn('value', 'varchar(80)', (c) => c.notNull())
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      .addColumn('error', 'text')
      .addColumn('request_id', 'varchar(128)')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('token_transactions_from_created')
      .on('token_transactions')
      .columns(['from_address', 'created_at'])
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropTable('token_transactions').execute();
    await db.schema.dropTable('wallet_keys').execute();
  },
};

/** Which addresses are registered for a DID (register-did): only those may sign JWS (sign-jws). */
const m0002: Migration = {
  async up(db: AnyDb) {
    await db.schema.alterTable('wallet_keys').addColumn('did_registered_at', 'bigint').execute();
  },
  async down(db: AnyDb) {
    await db.schema.alterTable('wallet_keys').dropColumn('did_registered_at').execute();
  },
};

/**
 * The transaction reconciler (ADR 0011): the block a transaction was mined in, the request's
 * amount (getTransactionStatus), and an index to find the records that are not final.
 */
const m0003: Migration = {
  async up(db: AnyDb) {
    await db.schema.alterTable('token_transactions').addColumn('block_number', 'bigint').execute();
    await db.schema.alterTable('token_transactions').addColumn('amount', 'varchar(80)').execute();
    await db.schema
      .createIndex('token_transactions_status_created')
      .on('token_transactions')
      .columns(['status', 'created_at'])
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropIndex('token_transactions_status_created').execute();
    await db.schema.alterTable('token_transactions').dropColumn('amount').execute();
    await db.schema.alterTable('token_transactions').dropColumn('block_number').execute();
  },
};

/**
 * The identical-retry answer survives a Redis that restarts empty (docs/api.md §4.2): each
 * transaction sent for a tempKey carries the tempKey's SHA-256 and the request's fingerprint,
 * written with the record before the broadcast.
 */
const m0004: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .alterTable('token_transactions')
      .addColumn('temp_key_hash', 'varchar(64)')
      .execute();
    await db.schema
      .alterTable('token_transactions')
      .addColumn('request_fingerprint', 'varchar(128)')
      .execute();
    await db.schema
      .createIndex('token_transactions_temp_key_hash')
      .on('token_transactions')
      .column('temp_key_hash')
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropIndex('token_transactions_temp_key_hash').execute();
    await db.schema.alterTable('token_transactions').dropColumn('request_fingerprint').execute();
    await db.schema.alterTable('token_transactions').dropColumn('temp_key_hash').execute();
  },
};

/**
 * SQL decides the tempKey (ADR 0011): at most one transaction per tempKey, whatever Redis says
 * (it may go back in time). Rows written before this, while the index was not unique, may share
 * a tempKey (a transfer sent twice after a Redis restore): the earliest row of each keeps the
 * hash (it is the answer an identical retry gets), the later ones get NULL — they stay recorded
 * (status, nonce, getTransactionStatus), and NULLs are distinct for a unique index on both
 * PostgreSQL and SQLite. They are the rows with `temp_key_hash IS NULL AND request_fingerprint IS
 * NOT NULL`; how many there were is reported.
 */
function m0005(report: (message: string) => void): Migration {
  return {
    async up(db: AnyDb) {
      const cleared = await db
        .updateTable('token_transactions')
        .set({ temp_key_hash: null })
        .where('temp_key_hash', 'is not', null)
        .where(
          sql<boolean>`exists (
            select 1 from token_transactions as earlier
            where earlier.temp_key_hash = token_transactions.temp_key_hash
              and (earlier.created_at < token_transactions.created_at
                or (earlier.created_at = token_transactions.created_at
                  and earlier.hash < token_transactions.hash)))`,
        )
        .executeTakeFirst();
      const count = Number(cleared.numUpdatedRows);
      if (count > 0) {
        report(
          `migration 0005: ${count} transaction(s) shared a tempKey with an earlier one (sent ` +
            'twice before the tempKey was unique); their temp_key_hash is now NULL, the earliest ' +
            'keeps it (find them: temp_key_hash IS NULL AND request_fingerprint IS NOT NULL)',
        );
      }
      await db.schema.dropIndex('token_transactions_temp_key_hash').execute();
      await db.schema
        .createIndex('token_transactions_temp_key_hash_unique')
        .on('token_transactions')
        .column('temp_key_hash')
        .unique()
        .execute();
    },
    async down(db: AnyDb) {
      await db.schema.dropIndex('token_transactions_temp_key_hash_unique').execute();
      await db.schema
        .createIndex('token_transactions_temp_key_hash')
        .on('token_transactions')
        .column('temp_key_hash')
        .execute();
    },
  };
}

/**
 * token-rpc's tables (`wallet_*`, `token_*`), recorded in `token_rpc_migrations`. `report` hears
 * what a migration has to say (migration 0005: how many duplicate tempKeys it resolved).
 */
export function tokenMigrationSet(
  report: (message: string) => void = () => undefined,
): MigrationSet {
  return {
    tableName: 'token_rpc_migrations',
    migrations: {
      '0001_wallet_and_transactions': m0001,
      '0002_wallet_did_registered_at': m0002,
      '0003_transaction_settlement': m0003,
      '0004_transaction_temp_key': m0004,
      '0005_transaction_temp_key_unique': m0005(report),
    },
  };
}

/** The migrations without a reporter (tests, tools). */
export const tokenMigrations: MigrationSet = tokenMigrationSet();
