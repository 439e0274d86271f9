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

// The README's production minimum: DATABASE_URL, REDIS_URL and ETH_RPC_URL (here: the harness'
// servers).
let db: TestDatabase;
let minimalEnv: Env;

beforeAll(async () => {
  db = await createTestDatabase();
  minimalEnv = {
    DATABASE_URL: db.url,
    REDIS_URL: testRedisUrl(),
    ETH_RPC_URL: testChainUrl(),
  };
});

afterAll(async () => {
  await db?.drop();
});

describe('block-rpc with only the documented minimum environment', () => {
  it('loads the documented defaults', () => {
    const config = loadConfig(buildApp.configSchema, minimalEnv);
    expect(config).toMatchObject({
      APP_ENV: 'production',
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
    });
    expect(metricsPortFor(config)).toBe(9084);
  });

  it('refuses to start without any one of them, naming it', async () => {
    const logger = createLogger({ name: 'block-rpc', level: 'silent' });
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
      const service = await buildApp(config, createLogger({ name: 'block-rpc', level: 'silent' }));
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
