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
import { ensureTestDidRegistry } from './testing/did-registry.js';

// The README's production minimum: DATABASE_URL, REDIS_URL, ETH_RPC_URL, DID_REGISTRY_ADDRESS,
// TOKEN_RPC_URL, AUTH_SERVICE_URL, INTERNAL_API_TOKEN and DID_KMS_SECRET_KEY (here: the harness'
// servers, the test registry and freshly generated strong secrets). token-rpc and auth-service are
// called per request, not at start: their URLs may point at nothing for this test.
let db: TestDatabase;
let minimalEnv: Env;

beforeAll(async () => {
  db = await createTestDatabase();
  minimalEnv = {
    DATABASE_URL: db.url,
    REDIS_URL: testRedisUrl(),
    ETH_RPC_URL: testChainUrl(),
    DID_REGISTRY_ADDRESS: await ensureTestDidRegistry(testChainUrl()),
    TOKEN_RPC_URL: 'http://127.0.0.1:2',
    AUTH_SERVICE_URL: 'http://127.0.0.1:2',
    INTERNAL_API_TOKEN: randomBytes(32).toString('base64url'),
    DID_KMS_SECRET_KEY: randomBytes(32).toString('hex'),
  };
});

afterAll(async () => {
  await db?.drop();
});

describe('did-service with only the documented minimum environment', () => {
  it('loads the documented defaults', () => {
    const config = loadConfig(buildApp.configSchema, minimalEnv);
    expect(config).toMatchObject({
      APP_ENV: 'production',
      HOST: '0.0.0.0',
      PORT: 8082,
      LOG_LEVEL: 'info',
      BODY_LIMIT_BYTES: 1024 * 1024,
      JWT_ISSUER: 'itp-auth',
      JWT_AUDIENCE: 'itp',
      DID_ISSUER_ALIASES: ['itp-issuer'],
      DID_VERIFIER_ALIASES: ['itp-verifier'],
      DID_RESOLUTION_CACHE_TTL_MS: 60_000,
      DID_RESOLUTION_CACHE_MAX: 10_000,
      VP_LOGIN_MAX_AGE_SECONDS: 300,
      VC_LIFETIME_SECONDS: 7_776_000,
      USER_STATUS_CACHE_MS: 5_000,
      WALLET_TIMEOUT_MS: 10_000,
    });
    expect(metricsPortFor(config)).toBe(9082);
  });

  it('refuses to start without any one of them, naming it', async () => {
    const logger = createLogger({ name: 'did-service', level: 'silent' });
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
      const service = await buildApp(
        config,
        createLogger({ name: 'did-service', level: 'silent' }),
      );
      close = () => service.close();
      running = await service.listen();
    });

    afterAll(async () => {
      await close?.();
    });

    it('answers /health/ready with 200 and lists its issuer DID', async () => {
      expect((await fetch(`${running.url}/health/ready`)).status).toBe(200);
      const issuers = (await (await fetch(`${running.url}/v2/did/issuers`)).json()) as unknown;
      expect(JSON.stringify(issuers)).toMatch(/did:ethr:0x[0-9a-fA-F]{40}/);
    });

    it('serves metrics on its own listener', async () => {
      expect(running.metricsUrl).not.toBe(running.url);
      expect((await fetch(`${running.metricsUrl}/metrics`)).status).toBe(200);
    });
  });
});
