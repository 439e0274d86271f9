import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  createLogger,
  loadConfig,
  metricsPortFor,
  type Env,
  type RunningService,
} from '@itp/service-kit';
import { createTestDatabase, testChainUrl, testRedisUrl, type TestDatabase } from '@itp/testing';
import { buildApp } from './app.js';

// The README's production minimum: DATABASE_URL, REDIS_URL, ETH_RPC_URL, WALLET_MASTER_KEY and
// INTERNAL_API_TOKEN (here: the harness' servers and freshly generated strong secrets).
let db: TestDatabase;
let minimalEnv: Env;

beforeAll(async () => {
  db = await createTestDatabase();
  minimalEnv = {
    DATABASE_URL: db.url,
    REDIS_URL: testRedisUrl(),
    ETH_RPC_URL: testChainUrl(),
    WALLET_MASTER_KEY: `k1:${randomBytes(32).toString('base64')}`,
    INTERNAL_API_TOKEN: randomBytes(32).toString('base64url'),
  };
});

afterAll(async () => {
  await db?.drop();
});

describe('token-rpc with only the documented minimum environment', () => {
  it('loads the documented defaults', () => {
    const config = loadConfig(buildApp.configSchema, minimalEnv);
    expect(config).toMatchObject({
      APP_ENV: 'production',
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
      TEMP_KEY_TTL_MS: 300_000,
      NONCE_LEASE_TTL_MS: 60_000,
      NONCE_LEASE_WAIT_MS: 30_000,
      NONCE_CACHE_TTL_MS: 120_000,
      NONCE_GAP_TIMEOUT_MS: 30_000,
      GAS_ESTIMATE_MARGIN_PERCENT: 20,
    });
    expect(metricsPortFor(config)).toBe(9083);
  });

  it('refuses to start without any one of them, naming it', async () => {
    const logger = createLogger({ name: 'token-rpc', level: 'silent' });
    for (const name of Object.keys(minimalEnv)) {
      const start = async () =>
        buildApp(loadConfig(buildApp.configSchema, { ...minimalEnv, [name]: undefined }), logger);
      await expect(start()).rejects.toThrow(name);
    }
  });

  describe('started', () => {
    let running: RunningService;
    let close: () => Promise<void>;

    beforeAll(async () => {
      const config = loadConfig(buildApp.configSchema, {
        ...minimalEnv,
        PORT: '0',
        METRICS_PORT: '0',
      });
      const service = await buildApp(config, createLogger({ name: 'token-rpc', level: 'silent' }));
      close = () => service.close();
      running = await service.listen();
    });

    afterAll(async () => {
      await close?.();
    });

    it('answers /health/ready with 200', async () => {
      const res = await fetch(`${running.url}/health/ready`);
      expect(res.status).toBe(200);
    });

    it('serves metrics on its own listener', async () => {
      expect(running.metricsUrl).not.toBe(running.url);
      const res = await fetch(`${running.metricsUrl}/metrics`);
      expect(res.status).toBe(200);
    });
  });
});
