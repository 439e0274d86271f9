import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  createLogger,
  loadConfig,
  metricsPortFor,
  type Env,
  type RunningService,
} from '@itp/service-kit';
import { createTestDatabase, testRedisUrl, type TestDatabase } from '@itp/testing';
import { buildApp } from './app.js';
import {
  UNUSED_URL,
  newInternalApiToken,
  newSigningKeysSecret,
} from './testing/start-auth-service.js';

// The README's minimum outside development: the stores (the harness' PostgreSQL and Redis), the
// signing keys and internal token (freshly generated, strong), and did-service's URL (never
// called here). Nothing else: APP_ENV is unset, so the service runs as in production.
let db: TestDatabase;
let minimalEnv: Env;

beforeAll(async () => {
  db = await createTestDatabase();
  minimalEnv = {
    DATABASE_URL: db.url,
    REDIS_URL: testRedisUrl(),
    JWT_SIGNING_KEYS: await newSigningKeysSecret(),
    DID_SERVICE_URL: UNUSED_URL,
    INTERNAL_API_TOKEN: newInternalApiToken(),
  };
});

afterAll(async () => {
  await db?.drop();
});

describe('auth-service with only the documented minimum environment', () => {
  it('loads the documented defaults', () => {
    const config = loadConfig(buildApp.configSchema, minimalEnv);
    expect(config).toMatchObject({
      APP_ENV: 'production',
      HOST: '0.0.0.0',
      PORT: 8081,
      LOG_LEVEL: 'info',
      BODY_LIMIT_BYTES: 1024 * 1024,
      JWT_ISSUER: 'itp-auth',
      JWT_AUDIENCE: 'itp',
      JWT_TTL_SECONDS: 3600,
      JWKS_MAX_AGE_SECONDS: 300,
      LOGIN_MAX_FAILURES_PER_ID: 5,
      LOGIN_ID_MAX_DELAY_SECONDS: 30,
      LOGIN_MAX_FAILURES_PER_IP: 50,
      LOGIN_FAILURE_WINDOW_SECONDS: 900,
      LOGIN_POLL_MIN_INTERVAL_MS: 1000,
      LOGIN_RESULT_GRACE_SECONDS: 30,
      CLIENT_AUTH_CACHE_SECONDS: 60,
      VP_LOGIN_MAX_AGE_SECONDS: 300,
      TRUST_PROXY: false,
    });
    expect(metricsPortFor(config)).toBe(9081);
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
      const service = await buildApp(
        config,
        createLogger({ name: 'auth-service', level: 'silent' }),
      );
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

    it('publishes its signing key', async () => {
      const res = await fetch(`${running.url}/v2/auth/.well-known/jwks.json`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { keys: unknown[] }).keys).toHaveLength(1);
    });
  });
});
