import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createJwtVerifier } from '@itp/auth-jwt';
import { createTestDatabase, uniquePrefix, type TestDatabase } from '@itp/testing';
import {
  basicAuth,
  newSigningKeysSecret,
  postJson,
  startAuthService,
  type RunningAuthService,
} from '../testing/start-auth-service.js';

/** Two auth-service instances sharing one Redis (same key prefix) and one PostgreSQL database. */
describe('two auth-service instances sharing Redis and PostgreSQL', () => {
  let db: TestDatabase;
  let a: RunningAuthService;
  let b: RunningAuthService;
  const shop = { authorization: basicAuth('shop', 'shop-secret-123456') };

  beforeAll(async () => {
    db = await createTestDatabase();
    const shared = {
      DATABASE_URL: db.url,
      REDIS_KEY_PREFIX: uniquePrefix('auth'),
      JWT_SIGNING_KEYS: await newSigningKeysSecret(),
      LOGIN_POLL_MIN_INTERVAL_MS: '0',
      LOGIN_MAX_FAILURES_PER_ID: '2',
    };
    // Started together: both run the migrations at once (the migration lock serialises them).
    [a, b] = await Promise.all([startAuthService(shared), startAuthService(shared)]);
    await a.domain.userAdmin.add({ id: 'alice', password: 'alice-password', name: 'Alice' });
    await b.domain.clientAdmin.add({
      id: 'shop',
      secret: 'shop-secret-123456',
      requestIdPrefixes: ['http://shop.example/'],
    });
  });

  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await db?.drop();
  });

  it('a request created on one instance is polled, approved and handed out across both', async () => {
    const created = await postJson(
      `${a.url}/v2/auth/auth-user-by-app`,
      { requestId: 'http://shop.example/?', waitTime: 120 },
      shop,
    );
    expect(created.status).toBe(200);
    const { requestId } = created.body as { requestId: string };

    const pending = await postJson(`${b.url}/v2/auth/auth-user-result-by-app`, { requestId }, shop);
    expect(pending.status).toBe(401);

    await b.domain.loginRequests.approveLoginRequest(requestId, 'alice');

    const polls = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        postJson(
          `${(i % 2 === 0 ? a : b).url}/v2/auth/auth-user-result-by-app`,
          { requestId },
          shop,
        ),
      ),
    );
    expect(polls.filter((p) => p.status === 200)).toHaveLength(1);
    expect(polls.filter((p) => p.status === 400)).toHaveLength(9);
  });

  it('a request cancelled on one instance is gone on the other', async () => {
    const created = await postJson(
      `${b.url}/v2/auth/auth-user-by-app`,
      { requestId: 'http://shop.example/x?' },
      shop,
    );
    const { requestId } = created.body as { requestId: string };
    expect(
      (await postJson(`${a.url}/v2/auth/cancel-auth-user-by-app`, { requestId }, shop)).status,
    ).toBe(200);
    expect(
      (await postJson(`${b.url}/v2/auth/auth-user-result-by-app`, { requestId }, shop)).status,
    ).toBe(400);
  });

  it('tokens of one instance verify against the JWKS of the other', async () => {
    const res = await postJson(`${a.url}/v2/auth/auth-user`, {
      id: 'alice',
      password: 'alice-password',
    });
    expect(res.status).toBe(200);
    const verifier = createJwtVerifier({
      jwksUrl: `${b.url}/v2/auth/.well-known/jwks.json`,
      issuer: 'itp-auth',
      audience: 'itp',
    });
    await expect(verifier.verify((res.body as { token: string }).token)).resolves.toMatchObject({
      userId: 'alice',
    });
  });

  it('share the failure counters', async () => {
    const headers = { 'x-forwarded-for': '198.18.0.7' };
    expect(
      (
        await postJson(
          `${a.url}/v2/auth/auth-user`,
          { id: 'mallory', password: 'guess-1' },
          headers,
        )
      ).status,
    ).toBe(401);
    expect(
      (
        await postJson(
          `${b.url}/v2/auth/auth-user`,
          { id: 'mallory', password: 'guess-2' },
          headers,
        )
      ).status,
    ).toBe(401);
    expect(
      (
        await postJson(
          `${a.url}/v2/auth/auth-user`,
          { id: 'mallory', password: 'guess-3' },
          headers,
        )
      ).status,
    ).toBe(429);
  });
});
