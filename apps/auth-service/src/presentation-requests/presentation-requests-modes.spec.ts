// @peculiar/x509 (through @itp/x509) needs reflect-metadata first; see wire-presentation-requests.ts.
import 'reflect-metadata';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { setGlobalConfig } from '@openid4vc/utils';
import { createLogger, loadConfig } from '@itp/service-kit';
import { createTestDatabase } from '@itp/testing';
import { buildAuthService } from '../app.js';
import { authServiceConfigSchema } from '../config.js';
import { basicAuth, postJson, startAuthService } from '../testing/start-auth-service.js';
import { testWallet } from './test-wallet.js';

// Where the verifier's key comes from: the dev PKI in development (its CA served), nothing
// outside development without VERIFIER_SIGNING_KEY (the feature is off: 404).
const logger = createLogger({ name: 'auth-service', level: 'silent' });
const SITE = { id: 'dev-site', secret: 'dev-site-secret-123456' };
const QUERY = {
  credentials: [{ id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: ['urn:eudi:pid:1'] } }],
};

let dataDir: string;

beforeAll(async () => {
  setGlobalConfig({ allowInsecureUrls: true });
  dataDir = await mkdtemp(join(tmpdir(), 'presentation-dev-'));
});

afterAll(() => rm(dataDir, { recursive: true, force: true }));

describe('presentation requests in development', () => {
  it('signs with the dev PKI (x509_san_dns:localhost) and serves its CA, which a wallet checks the request against', async () => {
    const publicUrl = 'http://localhost:18099';
    const config = loadConfig(authServiceConfigSchema, {
      APP_ENV: 'development',
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: dataDir,
      PUBLIC_URL: publicUrl,
      LOG_LEVEL: 'silent',
    });
    const { service, domain } = await buildAuthService(config, logger);
    const { url } = await service.listen();
    try {
      await domain.clientAdmin.add({
        id: SITE.id,
        secret: SITE.secret,
        requestIdPrefixes: ['http://dev-site.example/'],
      });
      const ca = await fetch(`${url}/v2/auth/oid4vp/verifier-ca.pem`);
      expect(ca.status).toBe(200);
      const caPem = await ca.text();
      expect(caPem).toMatch(/^-----BEGIN CERTIFICATE-----/);
      const created = await postJson(
        `${url}/v2/auth/presentation-requests`,
        { dcql_query: QUERY },
        { authorization: basicAuth(SITE.id, SITE.secret) },
      );
      expect(created.status).toBe(200);
      const { openid4vpUri } = created.body as { openid4vpUri: string };
      expect(openid4vpUri).toMatch(/^openid4vp:\/\/\?client_id=x509_san_dns%3Alocalhost&/);
      const wallet = testWallet({ verifierCaPem: caPem, publicUrl, serviceUrl: url });
      const resolved = await wallet.resolve(openid4vpUri);
      expect(resolved.authorizationRequestPayload.client_id).toBe('x509_san_dns:localhost');
      // The login requests' poll rule (LOGIN_POLL_MIN_INTERVAL_MS, default 1 s): 401, then 429.
      const { requestId } = created.body as { requestId: string };
      const poll = () =>
        postJson(
          `${url}/v2/auth/presentation-requests/result`,
          { requestId },
          { authorization: basicAuth(SITE.id, SITE.secret) },
        );
      expect((await poll()).status).toBe(401);
      const fast = await poll();
      expect(fast.status).toBe(429);
      expect(fast.body).toMatchObject({ error: { code: 'slow_down' } });
    } finally {
      await service.close();
    }
  });
});

describe('presentation requests outside development without a verifier key', () => {
  it('are off: 404 for sites and wallets, and no verifier CA', async () => {
    const db = await createTestDatabase();
    const auth = await startAuthService({ DATABASE_URL: db.url });
    try {
      await auth.domain.clientAdmin.add({
        id: SITE.id,
        secret: SITE.secret,
        requestIdPrefixes: ['http://dev-site.example/'],
      });
      const site = { authorization: basicAuth(SITE.id, SITE.secret) };
      const create = await postJson(
        `${auth.url}/v2/auth/presentation-requests`,
        { dcql_query: QUERY },
        site,
      );
      expect(create.status).toBe(404);
      const result = await postJson(
        `${auth.url}/v2/auth/presentation-requests/result`,
        { requestId: 'x' },
        site,
      );
      expect(result.status).toBe(404);
      const request = await fetch(
        `${auth.url}/v2/auth/presentation-requests/${'A'.repeat(43)}/request`,
      );
      expect(request.status).toBe(404);
      expect(await request.json()).toMatchObject({ error: 'invalid_request' });
      expect((await fetch(`${auth.url}/v2/auth/oid4vp/verifier-ca.pem`)).status).toBe(404);
    } finally {
      await auth.close();
      await db.drop();
    }
  });
});
