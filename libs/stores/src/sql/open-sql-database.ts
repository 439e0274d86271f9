import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, PostgresDialect, sql } from 'kysely';
import type { KyselyConfig, LogEvent, PostgresPool, PostgresPoolClient } from 'kysely';
import pg from 'pg';
import { inSpan, type Logger } from '@itp/service-kit';
import { parseInt8 } from './int8.js';
import { driverError, toStoreError } from '../unavailable.js';
import { SafeIntegerPlugin } from './safe-integer-plugin.js';
import { PortableSqliteDialect, withStatementCache } from './sqlite-dialect.js';
import type { SqlDatabase, SqlDialectName } from './sql-database.js';

export interface OpenSqlDatabaseOptions {
  logger?: Logger;
  /** Connections in the PostgreSQL pool (default 10). SQLite always uses one connection. */
  poolSize?: number;
}

const INT8_OID = 20;
const SQLITE_BUSY_TIMEOUT_MS = 5000;

/**
 * Opens the durable-data port from a URL:
 * - `postgres://…` / `postgresql://…`: a pg Pool (int8 → number when safe, else bigint; numeric
 *   stays a string), bounded connect time, and an error listener so that an idle client losing
 *   its connection is logged instead of crashing the process;
 * - `sqlite:<path>` (relative to the working directory; the folder is created) or
 *   `sqlite::memory:`: one better-sqlite3 connection with WAL, foreign_keys=ON, busy_timeout,
 *   64-bit integers read exactly (see SafeIntegerPlugin) and BEGIN IMMEDIATE transactions.
 *   better-sqlite3 is synchronous: open one SqlDatabase per file per process (a second one in the
 *   same process would block the event loop in busy_timeout while the first cannot progress).
 */
export function openSqlDatabase<DB>(
  url: string,
  options: OpenSqlDatabaseOptions = {},
): SqlDatabase<DB> {
  if (/^postgres(ql)?:\/\//i.test(url)) return openPostgres<DB>(url, options);
  if (url.startsWith('sqlite:')) return openSqlite<DB>(url.slice('sqlite:'.length), options);
  throw new Error(
    `Unsupported database URL scheme "${url.split(':')[0] ?? ''}:" (expected postgres://, postgresql:// or sqlite:)`,
  );
}

function openPostgres<DB>(url: string, options: OpenSqlDatabaseOptions): SqlDatabase<DB> {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30_000,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID && format !== 'binary'
          ? parseInt8
          : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  pool.on('error', (err) => {
    options.logger?.warn(
      { err: { message: err.message, name: err.name } },
      'idle PostgreSQL connection failed; the pool replaces it',
    );
  });
  // A connection that breaks while checked out (a query in flight when PostgreSQL goes away)
  // emits 'error' on its client, which pg-pool only listens to while the client is idle: without
  // this listener that event would crash the process. The query itself rejects with the error.
  pool.on('connect', (client) => {
    client.on('error', (err) => {
      options.logger?.warn(
        { err: { message: err.message, name: err.name } },
        'PostgreSQL connection failed while in use',
      );
    });
  });
  const db = new Kysely<DB>({
    dialect: new PostgresDialect({ pool: outageAwarePool(pool) }),
    log: queryErrorLogger(options.logger),
  });
  return wrap(db, 'postgres', async () => {
    if (!pool.ended) await pool.end();
  });
}

function openSqlite<DB>(location: string, options: OpenSqlDatabaseOptions): SqlDatabase<DB> {
  if (location === '' || location === '//') throw new Error('sqlite: URL without a file path');
  const inMemory = location === ':memory:';
  // `sqlite:///abs/file` and `sqlite://rel/file` are accepted as well as `sqlite:rel/file`.
  const path = inMemory ? location : resolve(location.replace(/^\/\/(?=.)/, ''));
  if (!inMemory) mkdirSync(dirname(path), { recursive: true });
  const database = new Database(path);
  try {
    if (!inMemory) database.pragma('journal_mode = WAL');
    database.pragma('synchronous = NORMAL');
    database.pragma('foreign_keys = ON');
    database.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
    database.defaultSafeIntegers(true);
  } catch (err) {
    database.close();
    throw err;
  }
  const db = new Kysely<DB>({
    dialect: new PortableSqliteDialect({ database: withStatementCache(database) }),
    plugins: [new SafeIntegerPlugin()],
    log: queryErrorLogger(options.logger),
  });
  options.logger?.debug({ path: inMemory ? ':memory:' : path }, 'opened SQLite database');
  return wrap(db, 'sqlite', async () => {
    if (database.open) database.close();
  });
}

/**
 * The pool as Kysely sees it, with connection-level failures (PostgreSQL down or restarting,
 * connections terminated, pool timeouts: see unavailable.ts) turned into ServiceUnavailableError
 * — for every query, transaction statement and connection checkout. A client whose query failed
 * that way is released as broken (pg-pool discards it instead of reusing it).
 */
function outageAwarePool(pool: pg.Pool): PostgresPool {
  const wrapped = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    let broken: unknown;
    const query = (text: unknown, values?: ReadonlyArray<unknown>): unknown => {
      if (typeof text !== 'string') return client.query(text as never); // a cursor (streaming)
      return inSpan(
        `sql ${operationOf(text)}`,
        { attributes: { 'db.system': 'postgresql', 'db.operation': operationOf(text) } },
        () => client.query(text, values as unknown[]),
      ).catch((err: unknown) => {
        const translated = toStoreError('database', err);
        if (translated !== err) broken = err;
        throw translated;
      });
    };
    return {
      query: query as PostgresPoolClient['query'],
      release: () => {
        const failure = broken;
        broken = undefined;
        if (failure === undefined) client.release();
        else client.release(failure instanceof Error ? failure : true);
      },
    };
  };
  return {
    connect: async () => {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (err) {
        throw toStoreError('database', err);
      }
      let facade = wrapped.get(client);
      if (!facade) {
        facade = wrap(client);
        wrapped.set(client, facade);
      }
      return facade;
    },
    end: () => pool.end(),
  };
}

/** The statement's first word (`SELECT`, `INSERT`…): a span name without values or identifiers. */
function operationOf(text: string): string {
  return /^\s*([A-Za-z]+)/.exec(text)?.[1]?.toUpperCase() ?? 'QUERY';
}

/** Failed queries at debug level: SQL text and duration only, never the bound parameters. */
function queryErrorLogger(logger: Logger | undefined): KyselyConfig['log'] {
  if (!logger) return undefined;
  return (event: LogEvent) => {
    if (event.level !== 'error') return;
    const err = event.error instanceof Error ? event.error : new Error(String(event.error));
    logger.debug(
      {
        err: { message: err.message, name: err.name },
        sql: event.query.sql,
        ms: event.queryDurationMillis,
      },
      'query failed',
    );
  };
}

/**
 * `release` frees the underlying connection(s) even when Kysely never initialised its driver
 * (its destroy() is a no-op then), so that close() always leaves no handle behind.
 */
function wrap<DB>(
  db: Kysely<DB>,
  dialect: SqlDialectName,
  release: () => Promise<void>,
): SqlDatabase<DB> {
  let closing: Promise<void> | undefined;
  return {
    db,
    dialect,
    ping: async () => {
      if (closing) throw new Error('database is closed');
      try {
        await sql`select 1`.execute(db);
      } catch (err) {
        throw driverError(err); // readiness quotes the driver's own reason
      }
    },
    close: () => {
      closing ??= db.destroy().then(release);
      return closing;
    },
  };
}
