import type { Logger, ResourceScope } from '@itp/service-kit';
import { resolveStoreUrls, type StoreUrlConfig } from './config/resolve-store-urls.js';
import { createKvStore } from './kv/create-kv-store.js';
import type { KvStore } from './kv/kv-store.js';
import { migrateToLatest } from './sql/migrate-to-latest.js';
import { openSqlDatabase } from './sql/open-sql-database.js';
import type { MigrationSet, SqlDatabase } from './sql/sql-database.js';

/** What an app's stores are opened from: its store settings and REDIS_KEY_PREFIX. */
export interface AppStoreConfig extends StoreUrlConfig {
  REDIS_KEY_PREFIX?: string;
}

export interface OpenAppStoresOptions {
  /** The app's name: its development SQLite file (`<DATA_DIR>/<app>.sqlite`). */
  app: string;
  /** The Redis key prefix when REDIS_KEY_PREFIX is unset (e.g. `auth:`). */
  keyPrefix: string;
  /** The app's SQL migrations, applied before the stores are handed out. */
  migrations: MigrationSet;
}

/** An app's two stores: short-lived state (Redis or the dev stand-in) and durable data (SQL). */
export interface AppStores<DB> {
  kv: KvStore;
  sql: SqlDatabase<DB>;
}

/**
 * Opens an app's key-value store and SQL database through its scope (`kv`, `sql`: each closed
 * when the app shuts down, or when a later step of its start fails) and migrates the database to
 * the app's latest schema. Where they are comes from the config (resolveStoreUrls: in
 * development a missing REDIS_URL is the in-process stand-in and a missing DATABASE_URL a SQLite
 * file; anywhere else both are required).
 */
export async function openAppStores<DB>(
  config: AppStoreConfig,
  scope: ResourceScope,
  logger: Logger,
  options: OpenAppStoresOptions,
): Promise<AppStores<DB>> {
  const urls = resolveStoreUrls(config, options.app);
  const kv = await scope.open(
    'kv',
    () =>
      createKvStore({
        ...(urls.redisUrl ? { redisUrl: urls.redisUrl } : {}),
        redisTopology: urls.redisTopology,
        keyPrefix: config.REDIS_KEY_PREFIX ?? options.keyPrefix,
        logger,
      }),
    (store) => store.close(),
  );
  const sql = await scope.open(
    'sql',
    () => openSqlDatabase<DB>(urls.databaseUrl, { logger }),
    (db) => db.close(),
  );
  await migrateToLatest(sql, options.migrations);
  return { kv, sql };
}
