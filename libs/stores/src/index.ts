export type { KvStore, SetOptions } from './kv/kv-store.js';
export { RedisKvStore, reconnectDelayMs, type RedisKvStoreOptions } from './kv/redis-kv-store.js';
export { MemoryKvStore, type MemoryKvStoreOptions } from './kv/memory-kv-store.js';
export { createKvStore, type CreateKvStoreOptions } from './kv/create-kv-store.js';

export type { MigrationSet, SqlDatabase, SqlDialectName } from './sql/sql-database.js';
export { openSqlDatabase, type OpenSqlDatabaseOptions } from './sql/open-sql-database.js';
export { migrateToLatest } from './sql/migrate-to-latest.js';
export { migrateDatabaseAt, runMigrations, type MigrationRunOutput } from './sql/run-migrations.js';
export { parseInt8 } from './sql/int8.js';

export { storeConfigShape, type StoreConfig } from './config/store-config.js';
export {
  resolveDatabaseUrl,
  resolveStoreUrls,
  type DatabaseUrlConfig,
  type StoreUrlConfig,
  type StoreUrls,
} from './config/resolve-store-urls.js';
export { cliStoreEnv, type CliStoreEnvOptions } from './config/cli-store-env.js';

export {
  openAppStores,
  type AppStoreConfig,
  type AppStores,
  type OpenAppStoresOptions,
} from './open-app-stores.js';

export {
  RateLimitedError,
  RateLimiter,
  UNKNOWN_CLIENT,
  type RateLimit,
} from './rate-limit/rate-limiter.js';
export {
  FixedWindowLimiter,
  type FixedWindow,
  type OverLimit,
} from './rate-limit/fixed-window-limiter.js';

export { kvReadinessCheck } from './readiness/kv-readiness-check.js';
export { sqlReadinessCheck } from './readiness/sql-readiness-check.js';

export {
  STORE_UNAVAILABLE_MESSAGES,
  driverError,
  isStoreUnavailable,
  databaseUnavailableReason,
  redisUnavailableReason,
  toStoreError,
  type StoreName,
} from './unavailable.js';

export { oneTimeKey, type OneTimeMarks } from './one-time-marks/one-time-marks.js';
export {
  oneTimeMarkId,
  oneTimeMarksMigration,
  SqlOneTimeMarks,
  type SqlOneTimeMarksOptions,
} from './one-time-marks/sql-one-time-marks.js';
