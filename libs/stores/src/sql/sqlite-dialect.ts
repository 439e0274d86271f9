import { CompiledQuery, SqliteAdapter, SqliteDialect, SqliteDriver } from 'kysely';
import type {
  DatabaseConnection,
  DialectAdapter,
  Driver,
  SqliteDatabase,
  SqliteDialectConfig,
} from 'kysely';

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

/** Most prepared statements a connection keeps (the services use a few dozen distinct queries). */
export const SQLITE_STATEMENT_CACHE_SIZE = 500;

/**
 * A better-sqlite3 database whose `prepare` reuses the statement of an SQL text seen before:
 * Kysely prepares every query again, a cost that shows in the create-vc profile on the embedded
 * database (bench/RESULTS.md). Safe because Kysely runs one
 * query at a time per connection (its connection mutex) and `all` / `run` finish synchronously;
 * a streamed query holds the connection until its iterator ends. SQLite re-prepares a cached
 * statement by itself after a schema change (migrations).
 */
export function withStatementCache(
  database: SqliteDatabase,
  max = SQLITE_STATEMENT_CACHE_SIZE,
): SqliteDatabase {
  const statements = new Map<string, ReturnType<SqliteDatabase['prepare']>>();
  return {
    close: () => database.close(),
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (statement === undefined) {
        statement = database.prepare(sql);
        if (statements.size >= max) statements.delete(statements.keys().next().value as string);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}
