import { CompiledQuery, SqliteAdapter, SqliteDialect, SqliteDriver } from 'kysely';
import type { DatabaseConnection, DialectAdapter, Driver, SqliteDialectConfig } from 'kysely';

/**
 * Kysely's SqliteDialect with two changes that make SQLite behave like PostgreSQL where services
 * notice it:
 * - transactions start with BEGIN IMMEDIATE: the write lock is taken up front, so a second process
 *   waits (busy_timeout) instead of failing with SQLITE_BUSY when a read transaction turns into a
 *   write (WAL mode cannot retry that upgrade);
 * - the adapter declares transactional DDL (SQLite has it; Kysely's adapter just does not claim
 *   it), so the Migrator runs a batch in one transaction and a failing migration leaves nothing
 *   half-applied.
 */
export class PortableSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;

  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }

  override createAdapter(): DialectAdapter {
    return new TransactionalDdlSqliteAdapter();
  }
}

class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}
