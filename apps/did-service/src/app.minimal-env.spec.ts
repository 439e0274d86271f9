import { randomBytes } from 'node:crypto';
import { expect, it } from '@jest/globals';
import {
  createTestDatabase,
  describeMinimalEnvStart,
  testChainUrl,
  testRedisUrl,
  type TestDatabase,
} from '@itp/testing';
import { buildApp } from './app.js';
import { ensureTestDidRegistry } from './testing/did-registry.js';

// The README's production minimum: DATABASE_URL, REDIS_URL, ETH_RPC_URL, DID_REGISTRY_ADDRESS,
// TOKEN_RPC_INTERNAL_URL, AUTH_SERVICE_URL, AUTH_SERVICE_INTERNAL_URL, PUBLIC_URL, the three
// INTERNAL_TOKEN_* and DID_KMS_SECRET_KEY (here: the harness'
// servers, the test registry and freshly generated strong secrets). token-rpc and auth-service are
// called per request, not at start: their URLs may point at nothing for this test (the aggregate
// readiness then names them; the self-only one stays ready).
let db: TestDatabase | undefined;

describeMinimalEnvStart({
  buildApp,
  minimalEnv: async () => {
    db = await createTestDatabase();
    return {
      DATABASE_URL: db.url,
      REDIS_URL: testRedisUrl(),
      ETH_RPC_URL: testChainUrl(),
      DID_REGISTRY_ADDRESS: await ensureTestDidRegistry(testChainUrl()),
      TOKEN_RPC_INTERNAL_URL: 'http://127.0.0.1:2',
      AUTH_SERVICE_URL: 'http://127.0.0.1:2',
      AUTH_SERVICE_INTERNAL_URL: 'http://127.0.0.1:2',
      PUBLIC_URL: 'https://api.example.test',
      INTERNAL_TOKEN_DID_TO_TOKEN_RPC: randomBytes(32).toString('base64url'),
      INTERNAL_TOKEN_DID_TO_AUTH: randomBytes(32).toString('base64url'),
      INTERNAL_TOKEN_AUTH_TO_DID: randomBytes(32).toString('base64url'),
      DID_KMS_SECRET_KEY: randomBytes(32).toString('hex'),
    };
  },
  teardown: async () => {
    await db?.drop();
  },
  defaults: {
    HOST: '0.0.0.0',
    PORT: 8082,
    LOG_LEVEL: 'info',
    BODY_LIMIT_BYTES: 1024 * 1024,
    JWT_ISSUER: 'itp-auth',
    JWT_AUDIENCE: 'itp',
    DID_ISSUER_ALIASES: ['itp-issuer'],
    DID_VERIFIER_ALIASES: ['itp-verifier'],
    DID_RESOLUTION_CACHE_TTL_MS: 60_000,
    DID_SIGNING_THREADS: 1,
    DID_RESOLUTION_CACHE_MAX: 10_000,
    VP_LOGIN_MAX_AGE_SECONDS: 300,
    VC_LIFETIME_SECONDS: 7_776_000,
    USER_STATUS_CACHE_MS: 5_000,
    WALLET_TIMEOUT_MS: 10_000,
    STATUS_LIST_LENGTH: 131_072,
    STATUS_LIST_MAX_AGE_SECONDS: 300,
  },
  metricsPort: 9082,
  internalPort: 8182,
  started: (service) => {
    it('names token-rpc and auth-service in its aggregate readiness when they are down', async () => {
      const res = await fetch(`${service().url}/health/ready`);
      expect(res.status).toBe(503);
      const report = (await res.json()) as { notReady: string[] };
      expect(report.notReady.sort()).toEqual(['auth-service', 'token-rpc']);
      expect((await fetch(`${service().url}/health/ready/self`)).status).toBe(200);
    });

    it('lists its issuer DID', async () => {
      const issuers = (await (await fetch(`${service().url}/v2/did/issuers`)).json()) as unknown;
      expect(JSON.stringify(issuers)).toMatch(/did:ethr:0x[0-9a-fA-F]{40}/);
    });
  },
});
