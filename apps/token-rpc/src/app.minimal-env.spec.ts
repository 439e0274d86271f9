import { randomBytes } from 'node:crypto';
import {
  createTestDatabase,
  describeMinimalEnvStart,
  testChainUrl,
  testRedisUrl,
  type TestDatabase,
} from '@itp/testing';
import { buildApp } from './app.js';

// The README's production minimum: DATABASE_URL, REDIS_URL, ETH_RPC_URL, WALLET_MASTER_KEY and
// INTERNAL_TOKEN_DID_TO_TOKEN_RPC (here: the harness' servers and freshly generated strong secrets).
let db: TestDatabase | undefined;

describeMinimalEnvStart({
  buildApp,
  minimalEnv: async () => {
    db = await createTestDatabase();
    return {
      DATABASE_URL: db.url,
      REDIS_URL: testRedisUrl(),
      ETH_RPC_URL: testChainUrl(),
      WALLET_MASTER_KEY: `k1:${randomBytes(32).toString('base64')}`,
      INTERNAL_TOKEN_DID_TO_TOKEN_RPC: randomBytes(32).toString('base64url'),
    };
  },
  teardown: async () => {
    await db?.drop();
  },
  defaults: {
    HOST: '0.0.0.0',
    PORT: 8083,
    LOG_LEVEL: 'info',
    BODY_LIMIT_BYTES: 1024 * 1024,
    READINESS_TIMEOUT_MS: 2_000,
    SHUTDOWN_TIMEOUT_MS: 10_000,
    TRUST_PROXY: false,
    RATE_LIMIT_WALLET_PER_MINUTE: 30,
    RATE_LIMIT_TEMP_KEY_PER_MINUTE: 300,
    RATE_LIMIT_SIGN_DATA_PER_MINUTE: 300,
    RATE_LIMIT_READ_PER_MINUTE: 600,
    TEMP_KEY_TTL_MS: 300_000,
    NONCE_LEASE_TTL_MS: 5_000,
    NONCE_LEASE_WAIT_MS: 10_000,
    NONCE_CACHE_TTL_MS: 120_000,
    NONCE_GAP_TIMEOUT_MS: 30_000,
    GAS_ESTIMATE_MARGIN_PERCENT: 20,
  },
  metricsPort: 9083,
  internalPort: 8183,
});
