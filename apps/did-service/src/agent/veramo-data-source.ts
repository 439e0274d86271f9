import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Entities, migrations } from '@veramo/data-store';
import pg from 'pg';
import { DataSource } from 'typeorm';
import type { Logger } from '@itp/service-kit';

/** PostgreSQL schema of Veramo's tables (`identifier`, `key`, `private-key`, …), kept apart from other services' tables. */
export const VERAMO_PG_SCHEMA = 'did_veramo';
/** typeorm's record of the applied Veramo migrations. */
export const VERAMO_MIGRATIONS_TABLE = 'did_veramo_migrations';
/** Serialises the Veramo migrations of several did-service replicas starting at once. */
const MIGRATION_LOCK_KEY = 0x0d1d_5e7e;

export interface VeramoDataSourceOptions {
  logger?: Logger;
  /** PostgreSQL pool size (default 10). */
  poolSize?: number;
}

/**
 * Veramo's data store (typeorm 0.3) on the service's DATABASE_URL: PostgreSQL (`postgres://…`,
 * tables in schema did_veramo) in production, SQLite (`sqlite:<file>`) in development; Veramo's
 * own migrations are applied before it is returned (under a PostgreSQL advisory lock).
 */
export async function openVeramoDataSource(
  databaseUrl: string,
  options: VeramoDataSourceOptions = {},
): Promise<DataSource> {
  const common = {
    entities: Entities,
    migrations,
    migrationsTableName: VERAMO_MIGRATIONS_TABLE,
    migrationsRun: false,
    synchronize: false,
    logging: false,
  } as const;
  if (/^postgres(ql)?:\/\//i.test(databaseUrl)) {
    return withMigrationLock(databaseUrl, async () => {
      const dataSource = new DataSource({
        ...common,
        type: 'postgres',
        url: databaseUrl,
        schema: VERAMO_PG_SCHEMA,
        extra: {
          max: options.poolSize ?? 10,
          connectionTimeoutMillis: 5000,
          idleTimeoutMillis: 30_000,
        },
        poolErrorHandler: (err: Error) =>
          options.logger?.warn(
            { err: { message: err.message, name: err.name } },
            'idle PostgreSQL connection failed',
          ),
      });
      await initialize(dataSource);
      keepClientErrorListeners(dataSource, options.logger);
      return dataSource;
    });
  }
  if (databaseUrl.startsWith('sqlite:')) {
    const location = databaseUrl.slice('sqlite:'.length);
    const inMemory = location === ':memory:';
    const path = inMemory ? location : resolve(location.replace(/^\/\/(?=.)/, ''));
    if (!inMemory) mkdirSync(dirname(path), { recursive: true });
    const dataSource = new DataSource({
      ...common,
      type: 'better-sqlite3',
      database: path,
      enableWAL: !inMemory,
      timeout: 5000,
    });
    return initialize(dataSource);
  }
  throw new Error('DATABASE_URL must be a postgres://, postgresql:// or sqlite: URL');
}

async function initialize(dataSource: DataSource): Promise<DataSource> {
  await dataSource.initialize();
  try {
    await dataSource.runMigrations({ transaction: 'all' });
  } catch (err) {
    await dataSource.destroy();
    throw err;
  }
  return dataSource;
}

/**
 * Gives every client of typeorm's pg pool an 'error' listener for its whole life. typeorm's query
 * runner removes its own listener at a client's first error and pg-pool's idle listener is off
 * while a client is checked out, so without this a second 'error' of the same client — a
 * session terminated by the server (57P01, `pg_ctl stop -m fast`) and then its socket ending —
 * would have no listener and end the process with an uncaught exception (the resilience
 * suite's postgres-stop fault does exactly that). The failed query itself still rejects (503
 * via outageAwareStore).
 */
function keepClientErrorListeners(dataSource: DataSource, logger: Logger | undefined): void {
  const pool = (dataSource.driver as unknown as { master?: pg.Pool }).master;
  if (!pool) return;
  const keep = (client: pg.PoolClient) =>
    client.on('error', (err: Error) =>
      logger?.debug({ err: { message: err.message, name: err.name } }, 'PostgreSQL session failed'),
    );
  pool.on('connect', keep);
  // The client typeorm connected while initialising, before the listener above existed.
  for (const client of (pool as unknown as { _clients?: pg.PoolClient[] })._clients ?? []) {
    keep(client);
  }
}

/** Holds a session-level advisory lock on its own connection while `work` runs. */
async function withMigrationLock<T>(databaseUrl: string, work: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${VERAMO_PG_SCHEMA}`);
    return await work();
  } finally {
    await client
      .query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY])
      .catch(() => undefined);
    await client.end().catch(() => undefined);
  }
}
