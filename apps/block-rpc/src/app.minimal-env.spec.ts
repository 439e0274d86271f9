import {
  createTestDatabase,
  describeMinimalEnvStart,
  testChainUrl,
  testRedisUrl,
  type TestDatabase,
} from '@itp/testing';
import { buildApp } from './app.js';

// The README's production minimum: DATABASE_URL, REDIS_URL and ETH_RPC_URL (here: the harness'
// servers).
let db: TestDatabase | undefined;

describeMinimalEnvStart({
  buildApp,
  minimalEnv: async () => {
    db = await createTestDatabase();
    return { DATABASE_URL: db.url, REDIS_URL: testRedisUrl(), ETH_RPC_URL: testChainUrl() };
  },
  teardown: async () => {
    await db?.drop();
  },
  defaults: {
    HOST: '0.0.0.0',
    PORT: 8084,
    LOG_LEVEL: 'info',
    BODY_LIMIT_BYTES: 1024 * 1024,
    READINESS_TIMEOUT_MS: 2_000,
    SHUTDOWN_TIMEOUT_MS: 10_000,
    BLOCK_FINALITY_DEPTH: 64,
    BLOCK_CACHE_SIZE: 2000,
    BLOCK_CACHE_MAX_BYTES: 67_108_864,
    BLOCK_CACHE_KV_TTL_MS: 604_800_000,
    BLOCK_TIP_TTL_MS: 1000,
    BLOCK_INDEX_ENABLED: true,
    BLOCK_INDEX_POLL_MS: 1000,
    BLOCK_INDEX_START: 0,
    BLOCK_INDEX_BATCH: 100,
    BLOCK_INDEX_LEASE_MS: 15_000,
    STATS_MAX_DAYS: 366,
  },
  metricsPort: 9084,
});
