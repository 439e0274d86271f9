import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createJwtVerifier } from '@itp/auth-jwt';
import { createTestDatabase, spawnApp, type SpawnedApp, type TestDatabase } from '@itp/testing';
import {
  basicAuth,
  postJson,
  startAuthService,
  type RunningAuthService,
} from '../testing/start-auth-service.js';

/** The gateway as its own process (apps never import apps), routing to `authUrl`. */
function spawnGateway(authUrl: string): Promise<SpawnedApp> {
  const unused = 'http://127.0.0.1:9';
  return spawnApp(
    'gateway',
    {
      APP_ENV: 'test',
      DID_SERVICE_URL: unused,
      TOKEN_RPC_URL: unused,
      BLOCK_RPC_URL: unused,
      AUTH_SERVICE_URL: authUrl,
      // The test plays a trusted proxy in front of the gateway to simulate client addresses.
      TRUST_PROXY: 'loopback',
    },
    { waitFor: 'live' },
  );
}

describe('auth-service through the gateway (gateway process, real PostgreSQL and Redis)', () => {
  let db: TestDatabase;
  let auth: RunningAuthService;
  let gateway: SpawnedApp;
  const shop = { authorization: basicAuth('shop', 'shop-secret-123456') };

  beforeAll(async () => {
    db = await createTestDatabase();
    auth = await startAuthService({
      DATABASE_URL: db.url,
      LOGIN_MAX_FAILURES_PER_IP: '3',
      LOGIN_POLL_MIN_INTERVAL_MS: '0',
    });
    await auth.domain.userAdmin.add({ id: 'alice', password: 'alice-password', name: 'Alice' });
    await auth.domain.clientAdmin.add({
      id: 'shop',
      secret: 'shop-secret-123456',
      requestIdPrefixes: ['http://shop.example/'],
    });
    gateway = await spawnGateway(auth.url);
  }, 60_000);

  afterAll(async () => {
    await gateway?.stop();
    await auth?.close();
    await db?.drop();
  });

  it('logs in; the token verifies against the JWKS served through the gateway', async () => {
    const res = await postJson(`${gateway.url}/v2/auth/auth-user`, {
      id: 'alice',
      password: 'alice-password',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ userId: 'alice', name: 'Alice', telNo: null, email: '' });
    const verifier = createJwtVerifier({
      jwksUrl: `${gateway.url}/v2/auth/.well-known/jwks.json`,
      issuer: 'itp-auth',
      audience: 'itp',
    });
    await expect(verifier.verify((res.body as { token: string }).token)).resolves.toMatchObject({
      userId: 'alice',
    });
  });

  it('passes the REST errors through: 401, 400 for malformed JSON, invalid_client', async () => {
    const wrong = await postJson(`${gateway.url}/v2/auth/auth-user`, {
      id: 'alice',
      password: 'wrong-password',
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ error: { code: '401', message: 'Invalid id or password' } });
    const malformed = await postJson(`${gateway.url}/v2/auth/auth-user`, '{"id":');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ error: { code: '400', message: 'Malformed JSON body' } });
    const noClient = await postJson(`${gateway.url}/v2/auth/auth-user-by-app`, {
      requestId: 'http://shop.example/?',
    });
    expect(noClient.status).toBe(401);
    expect((noClient.body as { error: { code: string } }).error.code).toBe('invalid_client');
  });

  it('reads a body of exactly 1 MiB (unknown members ignored) and answers 413 to one byte more', async () => {
    const padded = (size: number) => {
      const head = '{"id":"alice","password":"alice-password","pad":"';
      return `${head}${'x'.repeat(size - head.length - 2)}"}`;
    };
    const limit = 1024 * 1024;
    const atLimit = await postJson(`${gateway.url}/v2/auth/auth-user`, padded(limit));
    expect(atLimit.status).toBe(200);
    expect(atLimit.body).toMatchObject({ userId: 'alice' });
    const over = await postJson(`${gateway.url}/v2/auth/auth-user`, padded(limit + 1));
    expect(over.status).toBe(413);
    expect(over.body).toEqual({
      error: { code: '413', message: 'Request body is larger than the limit' },
    });
  });

  it('runs a web-site login: by-app → 401 → approve → result once → 400', async () => {
    const created = await postJson(
      `${gateway.url}/v2/auth/auth-user-by-app`,
      { requestId: 'http://shop.example/login?', waitTime: 60 },
      shop,
    );
    expect(created.status).toBe(200);
    const { requestId } = created.body as { requestId: string };
    const poll = () =>
      postJson(`${gateway.url}/v2/auth/auth-user-result-by-app`, { requestId }, shop);
    expect((await poll()).status).toBe(401);
    await auth.domain.loginRequests.approveLoginRequest(requestId, 'alice');
    const result = await poll();
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ userId: 'alice' });
    expect((await poll()).status).toBe(400);
  });

  it('rate limits per client address as the gateway reports it', async () => {
    const from = (ip: string) => ({ 'x-forwarded-for': ip });
    for (let i = 0; i < 3; i += 1) {
      const res = await postJson(
        `${gateway.url}/v2/auth/auth-user`,
        { id: `ghost-${i}`, password: 'wrong-password' },
        from('203.0.113.50'),
      );
      expect(res.status).toBe(401);
    }
    const limited = await postJson(
      `${gateway.url}/v2/auth/auth-user`,
      { id: 'alice', password: 'alice-password' },
      from('203.0.113.50'),
    );
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    const other = await postJson(
      `${gateway.url}/v2/auth/auth-user`,
      { id: 'alice', password: 'alice-password' },
      from('203.0.113.51'),
    );
    expect(other.status).toBe(200);
  });
});
