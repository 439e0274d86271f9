import { expect, it } from '@jest/globals';
import {
  createTestDatabase,
  describeMinimalEnvStart,
  testRedisUrl,
  type TestDatabase,
} from '@itp/testing';
import { buildApp } from './app.js';
import {
  UNUSED_URL,
  newInternalApiToken,
  newSigningKeysSecret,
} from './testing/start-auth-service.js';

// The README's minimum outside development: the stores (the harness' PostgreSQL and Redis), the
// signing keys and internal tokens (freshly generated, strong), did-service's URL (never
// called here) and PUBLIC_URL. Nothing else: APP_ENV is unset, so the service runs as in production.
let db: TestDatabase | undefined;

describeMinimalEnvStart({
  buildApp,
  minimalEnv: async () => {
    db = await createTestDatabase();
    return {
      DATABASE_URL: db.url,
      REDIS_URL: testRedisUrl(),
      JWT_SIGNING_KEYS: await newSigningKeysSecret(),
      DID_SERVICE_INTERNAL_URL: UNUSED_URL,
      INTERNAL_TOKEN_AUTH_TO_DID: newInternalApiToken(),
      INTERNAL_TOKEN_DID_TO_AUTH: newInternalApiToken(),
      PUBLIC_URL: 'https://api.example.test',
    };
  },
  teardown: async () => {
    await db?.drop();
  },
  defaults: {
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
  },
  metricsPort: 9081,
  internalPort: 8181,
  started: (service) => {
    it('publishes its signing key', async () => {
      const res = await fetch(`${service().url}/v2/auth/.well-known/jwks.json`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { keys: unknown[] }).keys).toHaveLength(1);
    });
  },
});
