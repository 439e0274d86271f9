import { afterEach, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import pg from 'pg';
import { BadRequestError, ServiceUnavailableError } from '@itp/errors';
import { LocalRedis, startTcpProxy, type TcpProxy } from '@itp/harness';
import {
  createTestDatabase,
  testRedisUrl,
  uniquePrefix,
  waitFor,
  type TestDatabase,
} from '@itp/testing';
import { RedisKvStore } from './kv/redis-kv-store.js';
import { openSqlDatabase } from './sql/open-sql-database.js';
import type { SqlDatabase } from './sql/sql-database.js';
import {
  STORE_UNAVAILABLE_MESSAGES,
  isStoreUnavailable,
  databaseUnavailableReason,
  redisUnavailableReason,
  toStoreError,
} from './unavailable.js';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('which store failures mean "unavailable"', () => {
  it('SQL: sockets, class 08 and 28, shutdowns, too many connections, timeouts, SQLite locks', () => {
    const refused = 'connection failed (ECONNREFUSED)';
    expect(
      databaseUnavailableReason(withCode('connect ECONNREFUSED 10.0.0.5:5432', 'ECONNREFUSED')),
    ).toBe(refused);
    expect(databaseUnavailableReason(new AggregateError([withCode('x', 'ECONNREFUSED')]))).toBe(
      refused,
    );
    expect(
      databaseUnavailableReason(new Error('wrapped', { cause: withCode('x', 'ECONNRESET') })),
    ).toBe('connection failed (ECONNRESET)');
    for (const code of ['57P01', '57P03', '08006', '53300', '28P01', '3D000', '57014']) {
      expect(databaseUnavailableReason(withCode('x', code))).toBe(
        `the database server refused the session (${code})`,
      );
    }
    expect(databaseUnavailableReason(new Error('Connection terminated unexpectedly'))).toBe(
      'connection lost',
    );
    expect(databaseUnavailableReason(new Error('timeout exceeded when trying to connect'))).toBe(
      'no connection within the timeout',
    );
    expect(databaseUnavailableReason(new Error('Client was closed and is not queryable'))).toBe(
      'connection lost',
    );
    expect(
      databaseUnavailableReason(new Error('Cannot use a pool after calling end on the pool')),
    ).toBe('connection lost');
    // typeorm: a transaction whose connection was cut, and QueryFailedError's driverError.
    expect(
      databaseUnavailableReason(
        new Error('Query runner already released. Cannot run queries anymore.'),
      ),
    ).toBe('connection lost');
    expect(
      databaseUnavailableReason(
        Object.assign(new Error('terminating connection'), {
          driverError: withCode('terminating connection', '57P01'),
        }),
      ),
    ).toBe('the database server refused the session (57P01)');
    expect(databaseUnavailableReason(withCode('database is locked', 'SQLITE_BUSY'))).toBe(
      'the database file is not usable (SQLITE_BUSY)',
    );
  });

  it('SQL: what is wrong with the statement is not an outage', () => {
    for (const code of ['23505', '42601', 'P0001', '40001', 'SQLITE_CONSTRAINT_UNIQUE']) {
      expect(databaseUnavailableReason(withCode('x', code))).toBeUndefined();
    }
    expect(databaseUnavailableReason(new TypeError('x is not a function'))).toBeUndefined();
    expect(databaseUnavailableReason('a string')).toBeUndefined();
  });

  it('Redis: no connection, closed, timeouts, LOADING / MASTERDOWN / OOM; not WRONGTYPE', () => {
    const maxRetries = Object.assign(new Error('Reached the max retries per request limit'), {
      name: 'MaxRetriesPerRequestError',
    });
    expect(redisUnavailableReason(maxRetries)).toBe('no connection');
    expect(redisUnavailableReason(new Error('Connection is closed.'))).toBe('connection closed');
    expect(redisUnavailableReason(new Error('Command timed out'))).toBe('command timeout');
    expect(redisUnavailableReason(withCode('read ECONNRESET', 'ECONNRESET'))).toBe(
      'connection failed (ECONNRESET)',
    );
    expect(
      redisUnavailableReason(new Error('LOADING Redis is loading the dataset in memory')),
    ).toBe('not serving (LOADING)');
    expect(redisUnavailableReason(new Error('MASTERDOWN Link with MASTER is down'))).toBe(
      'not serving (MASTERDOWN)',
    );
    expect(
      redisUnavailableReason(new Error("OOM command not allowed when used memory > 'maxmemory'.")),
    ).toBe('not serving (OOM)');
    expect(
      redisUnavailableReason(
        new Error('WRONGTYPE Operation against a key holding the wrong kind of value'),
      ),
    ).toBeUndefined();
  });

  it('toStoreError wraps an outage with its cause and reason, and leaves everything else alone', () => {
    const cause = withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED');
    const wrapped = toStoreError('database', cause) as ServiceUnavailableError;
    expect(wrapped).toBeInstanceOf(ServiceUnavailableError);
    expect(wrapped.message).toBe(
      `${STORE_UNAVAILABLE_MESSAGES.database}: connection failed (ECONNREFUSED)`,
    );
    expect(wrapped.message).not.toMatch(/127\.0\.0\.1/);
    expect(wrapped.cause).toBe(cause);
    expect(wrapped.details).toEqual({
      store: 'database',
      reason: 'connection failed (ECONNREFUSED)',
    });
    expect(isStoreUnavailable(wrapped, 'database')).toBe(true);
    expect(isStoreUnavailable(wrapped, 'redis')).toBe(false);
    const sqlError = withCode('duplicate key value', '23505');
    expect(toStoreError('database', sqlError)).toBe(sqlError);
    const domain = new BadRequestError('bad');
    expect(toStoreError('redis', domain)).toBe(domain);
  });
});

/** Resolves once the server at `url` runs a statement containing `text` (it is in flight). */
async function untilRunning(url: string, text: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await waitFor(
      async () =>
        (
          await admin.query(
            `select 1 from pg_stat_activity where datname = current_database()
              and pid <> pg_backend_pid() and state = 'active' and query like $1`,
            [`%${text}%`],
          )
        ).rows.length > 0,
      { what: `PostgreSQL to run ${text}` },
    );
  } finally {
    await admin.end();
  }
}

/** The rejection of `promise` (fails the test when it resolves). */
async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (err: unknown) => err,
  );
}

describe('PostgreSQL going away under a running SqlDatabase (real server behind a TCP relay)', () => {
  let testDb: TestDatabase | undefined;
  let proxy: TcpProxy | undefined;
  let database: SqlDatabase<unknown> | undefined;
  afterEach(async () => {
    await database?.close();
    await proxy?.close();
    await testDb?.drop();
    database = undefined;
    proxy = undefined;
    testDb = undefined;
  });

  async function openThroughProxy() {
    testDb = await createTestDatabase();
    proxy = await startTcpProxy(new URL(testDb.url).host);
    database = openSqlDatabase<unknown>(proxy.proxiedUrl(testDb.url), { poolSize: 2 });
    await sql`create table items (id integer primary key)`.execute(database.db);
    return { db: database.db, database, proxy };
  }

  it('rejects with ServiceUnavailableError while it is down and works again once it is back', async () => {
    const { db, database, proxy } = await openThroughProxy();
    // A query in flight when the connection breaks: rejected, and the process survives the
    // client's 'error' event (pg emits it on a checked-out client).
    const inFlight = rejectionOf(sql`select pg_sleep(5)`.execute(db));
    await untilRunning(testDb!.url, 'pg_sleep(5)');
    await proxy.cut();
    const broken = await inFlight;
    expect(broken).toBeInstanceOf(ServiceUnavailableError);
    expect(isStoreUnavailable(broken, 'database')).toBe(true);

    // New connections refused: every kind of call says 503, transactions included.
    const refused = (await rejectionOf(sql`select 1`.execute(db))) as ServiceUnavailableError;
    expect(refused).toBeInstanceOf(ServiceUnavailableError);
    expect(refused.details).toEqual({
      store: 'database',
      reason: 'connection failed (ECONNREFUSED)',
    });
    expect(refused.retryAfterSeconds).toBeGreaterThan(0);
    const inTransaction = await rejectionOf(
      db.transaction().execute((trx) => sql`insert into items values (1)`.execute(trx)),
    );
    expect(inTransaction).toBeInstanceOf(ServiceUnavailableError);
    // Readiness quotes the driver's own error.
    await expect(database.ping()).rejects.toThrow(/ECONNREFUSED/);

    await proxy.restore();
    await sql`insert into items values (1)`.execute(db);
    const rows = await sql<{ id: number }>`select id from items`.execute(db);
    expect(rows.rows).toEqual([{ id: 1 }]);
    // A statement error is still the statement's error, not an outage.
    const duplicate = await rejectionOf(sql`insert into items values (1)`.execute(db));
    expect(duplicate).not.toBeInstanceOf(ServiceUnavailableError);
    expect((duplicate as { code?: string }).code).toBe('23505');
  });

  it('an administrator terminating the connection (57P01) is an outage too, and the pool recovers', async () => {
    const { db } = await openThroughProxy();
    const admin = new pg.Client({ connectionString: testDb!.url });
    await admin.connect();
    try {
      const inFlight = rejectionOf(
        sql`select pg_sleep(5) /* ${sql.raw(uniquePrefix('victim'))} */`.execute(db),
      );
      // Terminates the victim as soon as the server runs its statement.
      await waitFor(
        async () =>
          (
            await admin.query(
              `select pg_terminate_backend(pid) from pg_stat_activity
                where datname = current_database() and pid <> pg_backend_pid() and query like '%pg_sleep(5)%'`,
            )
          ).rows.length > 0,
        { what: 'the in-flight pg_sleep to be terminated' },
      );
      const err = (await inFlight) as ServiceUnavailableError;
      expect(err).toBeInstanceOf(ServiceUnavailableError);
      expect(err.details).toMatchObject({
        store: 'database',
        reason: 'the database server refused the session (57P01)',
      });
      const again = await sql<{ one: number }>`select 1 as one`.execute(db);
      expect(again.rows).toEqual([{ one: 1 }]);
    } finally {
      await admin.end();
    }
  });
});

describe('Redis going away under a running RedisKvStore (real server behind a TCP relay)', () => {
  let proxy: TcpProxy | undefined;
  let store: RedisKvStore | undefined;
  afterEach(async () => {
    await store?.close();
    await proxy?.close();
    store = undefined;
    proxy = undefined;
  });

  it('rejects every call with ServiceUnavailableError while down, and works again once back', async () => {
    proxy = await startTcpProxy(new URL(testRedisUrl()).host);
    store = new RedisKvStore({
      url: proxy.proxiedUrl(testRedisUrl()),
      keyPrefix: uniquePrefix('outage'),
      commandTimeoutMs: 1000,
    });
    await store.set('k', 'v');
    await proxy.cut();
    for (const call of [
      () => store!.get('k'),
      () => store!.set('k', 'w'),
      () => store!.incr('n', { ttlMs: 1000 }),
      () => store!.compareAndSwap('k', 'v', 'w'),
      () => store!.ttlMs('k'),
    ]) {
      const err = await rejectionOf(call());
      expect(err).toBeInstanceOf(ServiceUnavailableError);
      expect(isStoreUnavailable(err, 'redis')).toBe(true);
    }
    // Readiness quotes the ioredis error.
    const pingError = await rejectionOf(store.ping());
    expect(pingError).not.toBeInstanceOf(ServiceUnavailableError);

    await proxy.restore();
    // ioredis reconnects on its own: the first get that succeeds must give the stored value.
    const value = await waitFor(() => store!.get('k').then((v) => ({ v })), {
      what: 'the store to work again',
      timeoutMs: 5000,
    });
    expect(value.v).toBe('v');
  });
});

describe('a full Redis (maxmemory reached, noeviction) under a running RedisKvStore', () => {
  it('refuses writes with ServiceUnavailableError (the services answer 503), evicts nothing, reads still work', async () => {
    // A Redis of its own: the run's Redis is shared by every test file.
    const redis = await LocalRedis.start();
    const store = new RedisKvStore({ url: redis.url, keyPrefix: 'full:' });
    try {
      await store.set('kept', 'a value that must not be evicted');
      const admin = new Redis(redis.url);
      try {
        const used = Number(/used_memory:(\d+)/.exec(await admin.info('memory'))?.[1]);
        await admin.config('SET', 'maxmemory-policy', 'noeviction');
        await admin.config('SET', 'maxmemory', String(used + 256 * 1024));
      } finally {
        admin.disconnect();
      }
      const big = 'x'.repeat(64 * 1024);
      let refused: unknown;
      for (let i = 0; i < 64 && refused === undefined; i += 1) {
        refused = await store.set(`filler:${i}`, big).then(
          () => undefined,
          (err: unknown) => err,
        );
      }
      expect(refused).toBeInstanceOf(ServiceUnavailableError);
      expect(isStoreUnavailable(refused, 'redis')).toBe(true);
      expect((refused as Error).message).toBe(
        `${STORE_UNAVAILABLE_MESSAGES.redis}: not serving (OOM)`,
      );
      expect(await store.get('kept')).toBe('a value that must not be evicted');
    } finally {
      await store.close();
      await redis.close();
    }
  });
});
