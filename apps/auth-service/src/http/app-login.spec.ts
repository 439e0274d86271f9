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

const SITE = { id: 'shop', secret: 'shop-secret-123456', prefixes: ['http://shop.example/'] };
const OTHER = { id: 'other', secret: 'other-secret-123456', prefixes: ['http://shop.example/'] };
const shop = { authorization: basicAuth(SITE.id, SITE.secret) };
const other = { authorization: basicAuth(OTHER.id, OTHER.secret) };

const PENDING = { error: { code: '401', message: "Waiting for the user application's response" } };
const UNKNOWN = {
  error: {
    code: '400',
    message: 'Login request was never made, has timed out or is no longer valid',
  },
};

describe('web-site login requests over HTTP (real PostgreSQL and Redis)', () => {
  let db: TestDatabase;
  /** No poll throttle, so that tests can poll back to back. */
  let auth: RunningAuthService;
  /** How far `auth`'s login-request clock is ahead of the real one (tests move it forward). */
  let skewMs = 0;
  /** Same stores, a throttle of one poll per minute. */
  let throttled: RunningAuthService;
  const path = (name: string, base = auth.url) => `${base}/v2/auth/${name}`;

  beforeAll(async () => {
    db = await createTestDatabase();
    const shared = {
      DATABASE_URL: db.url,
      REDIS_KEY_PREFIX: uniquePrefix('auth'),
      JWT_SIGNING_KEYS: await newSigningKeysSecret(),
      LOGIN_RESULT_GRACE_SECONDS: '0',
      LOGIN_MAX_FAILURES_PER_IP: '4',
    };
    auth = await startAuthService(
      { ...shared, LOGIN_POLL_MIN_INTERVAL_MS: '0' },
      { clock: () => Date.now() + skewMs },
    );
    throttled = await startAuthService({ ...shared, LOGIN_POLL_MIN_INTERVAL_MS: '60000' });
    await auth.domain.userAdmin.add({
      id: 'alice',
      password: 'alice-password',
      name: 'Alice',
      email: 'alice@example.com',
    });
    for (const c of [SITE, OTHER]) {
      await auth.domain.clientAdmin.add({
        id: c.id,
        secret: c.secret,
        requestIdPrefixes: c.prefixes,
      });
    }
    await auth.domain.clientAdmin.add({
      id: 'retired',
      secret: 'retired-secret-1234',
      requestIdPrefixes: ['http://shop.example/'],
    });
    await auth.domain.clientAdmin.setEnabled('retired', false);
  });

  afterAll(async () => {
    await throttled?.close();
    await auth?.close();
    await db?.drop();
  });

  const create = async (requestId = 'http://shop.example/login?', waitTime?: number) => {
    const res = await postJson(path('auth-user-by-app'), { requestId, waitTime }, shop);
    expect(res.status).toBe(200);
    return (res.body as { requestId: string }).requestId;
  };

  it('by-app → pending 401 → approve (domain operation) → login result once → 400', async () => {
    const res = await postJson(
      path('auth-user-by-app'),
      { requestId: 'http://shop.example/login?' },
      shop,
    );
    expect(res.status).toBe(200);
    const body = res.body as { requestId: string; waitTime: number };
    expect(body.waitTime).toBe(60);
    expect(body.requestId).toMatch(/^http:\/\/shop\.example\/login\?requestId=\d{52}$/);
    const id = body.requestId.split('requestId=')[1]!;
    expect(Number(id.slice(0, 13))).toBeGreaterThan(Date.UTC(2024, 0, 1));

    const waiting = await postJson(
      path('auth-user-result-by-app'),
      { requestId: body.requestId, waitTime: 60 },
      shop,
    );
    expect(waiting.status).toBe(401);
    expect(waiting.body).toEqual(PENDING);

    await auth.domain.loginRequests.approveLoginRequest(body.requestId, 'alice');

    const result = await postJson(
      path('auth-user-result-by-app'),
      { requestId: body.requestId },
      shop,
    );
    expect(result.status).toBe(200);
    expect(result.body).toEqual({
      token: expect.any(String),
      userId: 'alice',
      name: 'Alice',
      telNo: null,
      email: 'alice@example.com',
    });
    const verifier = createJwtVerifier({
      jwksUrl: path('.well-known/jwks.json'),
      issuer: 'itp-auth',
      audience: 'itp',
    });
    await expect(verifier.verify((result.body as { token: string }).token)).resolves.toMatchObject({
      userId: 'alice',
    });

    const again = await postJson(
      path('auth-user-result-by-app'),
      { requestId: body.requestId },
      shop,
    );
    expect(again.status).toBe(400);
    expect(again.body).toEqual(UNKNOWN);
  });

  it('refuses control characters in the client id and the requestId with 400, before any lookup', async () => {
    // A NUL byte used to reach PostgreSQL (500): HTTP Basic client id, then the body's requestId.
    for (const route of [
      'auth-user-by-app',
      'cancel-auth-user-by-app',
      'auth-user-result-by-app',
    ]) {
      const nulClient = await postJson(
        path(route),
        { requestId: 'http://shop.example/login?requestId=1' },
        { authorization: basicAuth('shop\u0000x', 'whatever-secret') },
      );
      expect(nulClient.status).toBe(400);
      expect(nulClient.body).toEqual({
        error: { code: '400', message: expect.stringMatching(/control characters/) },
      });
      const nulRequestId = await postJson(
        path(route),
        { requestId: 'http://shop.example/login?\u0000' },
        shop,
      );
      expect(nulRequestId.status).toBe(400);
    }
  });

  it('answers 400 for a request that never existed', async () => {
    const res = await postJson(
      path('auth-user-result-by-app'),
      { requestId: `http://shop.example/login?requestId=${'1'.repeat(52)}` },
      shop,
    );
    expect(res.status).toBe(400);
    expect(res.body).toEqual(UNKNOWN);
  });

  it('cancel → 200 without a body; then the result is 400 and approval fails', async () => {
    const requestId = await create();
    const res = await fetch(path('cancel-auth-user-by-app'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: '*/*', ...shop },
      body: JSON.stringify({ requestId, waitTime: 60 }),
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
    const result = await postJson(path('auth-user-result-by-app'), { requestId }, shop);
    expect(result.status).toBe(400);
    await expect(auth.domain.loginRequests.approveLoginRequest(requestId, 'alice')).rejects.toThrow(
      /never made/,
    );
  });

  it('times out: after waitTime the request is 400 and cannot be approved', async () => {
    const requestId = await create('http://shop.example/t?', 1);
    expect((await postJson(path('auth-user-result-by-app'), { requestId }, shop)).status).toBe(401);
    skewMs += 1200; // the waitTime of 1 s runs out on the service's clock
    const res = await postJson(path('auth-user-result-by-app'), { requestId }, shop);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(UNKNOWN);
    await expect(auth.domain.loginRequests.approveLoginRequest(requestId, 'alice')).rejects.toThrow(
      /never made/,
    );
  });

  it('keeps a request away from another client: 400 for its result and its cancel', async () => {
    const requestId = await create();
    await auth.domain.loginRequests.approveLoginRequest(requestId, 'alice');
    const peek = await postJson(path('auth-user-result-by-app'), { requestId }, other);
    expect(peek.status).toBe(400);
    expect(peek.body).toEqual(UNKNOWN);
    const cancel = await postJson(path('cancel-auth-user-by-app'), { requestId }, other);
    expect(cancel.status).toBe(400);
    const mine = await postJson(path('auth-user-result-by-app'), { requestId }, shop);
    expect(mine.status).toBe(200);
  });

  it('hands out one login result to 10 concurrent polls', async () => {
    const requestId = await create();
    await auth.domain.loginRequests.approveLoginRequest(requestId, 'alice');
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        postJson(path('auth-user-result-by-app'), { requestId }, shop),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 400)).toHaveLength(9);
  });

  it('answers slow_down (429 + Retry-After) to polls faster than the interval', async () => {
    const requestId = await create();
    const first = await postJson(
      path('auth-user-result-by-app', throttled.url),
      { requestId },
      shop,
    );
    expect(first.status).toBe(401);
    const second = await postJson(
      path('auth-user-result-by-app', throttled.url),
      { requestId },
      shop,
    );
    expect(second.status).toBe(429);
    expect(second.body).toEqual({
      error: { code: 'slow_down', message: expect.stringMatching(/Polling too fast/) },
    });
    const retryAfter = Number(second.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
  });

  describe('client authentication (HTTP Basic)', () => {
    const endpoints = ['auth-user-by-app', 'cancel-auth-user-by-app', 'auth-user-result-by-app'];
    const bad: Array<[string, Record<string, string>]> = [
      ['no credentials', {}],
      ['a bearer token', { authorization: 'Bearer abc' }],
      ['a wrong secret', { authorization: basicAuth(SITE.id, 'wrong-secret-xx') }],
      ['an unknown client', { authorization: basicAuth('nobody', SITE.secret) }],
      ['a disabled client', { authorization: basicAuth('retired', 'retired-secret-1234') }],
    ];

    it.each(bad)('refuses %s with 401 invalid_client', async (_label, headers) => {
      for (const endpoint of endpoints) {
        const res = await postJson(
          path(endpoint),
          { requestId: 'http://shop.example/?' },
          { ...headers, 'x-forwarded-for': `192.0.2.${endpoints.indexOf(endpoint) + 1}` },
        );
        expect(res.status).toBe(401);
        expect((res.body as { error: { code: string } }).error.code).toBe('invalid_client');
        expect(res.headers.get('www-authenticate')).toMatch(/^Basic /);
      }
    });

    it('rate limits failed client authentication per IP', async () => {
      const headers = {
        authorization: basicAuth(SITE.id, 'guess-guess-1'),
        'x-forwarded-for': '203.0.113.9',
      };
      for (let i = 0; i < 4; i += 1) {
        expect((await postJson(path('auth-user-by-app'), { requestId: 'x' }, headers)).status).toBe(
          401,
        );
      }
      const limited = await postJson(
        path('auth-user-by-app'),
        { requestId: 'http://shop.example/?' },
        { ...shop, 'x-forwarded-for': '203.0.113.9' },
      );
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    });
  });

  describe('auth-user-by-app input', () => {
    it('refuses a site identifier outside the client prefixes with 403', async () => {
      for (const requestId of [
        'http://evil.example/?',
        'http://shop.example.evil/?',
        'http://shop.example',
      ]) {
        const res = await postJson(path('auth-user-by-app'), { requestId }, shop);
        expect(res.status).toBe(403);
        expect((res.body as { error: { code: string } }).error.code).toBe('403');
      }
    });

    it('takes waitTime in seconds, 1..600', async () => {
      const ok = await postJson(
        path('auth-user-by-app'),
        { requestId: 'http://shop.example/?', waitTime: 600 },
        shop,
      );
      expect(ok.status).toBe(200);
      expect((ok.body as { waitTime: number }).waitTime).toBe(600);
      for (const waitTime of [0, 601, -5, 1.5, '60']) {
        const res = await postJson(
          path('auth-user-by-app'),
          { requestId: 'http://shop.example/?', waitTime },
          shop,
        );
        expect(res.status).toBe(400);
        expect((res.body as { error: { code: string } }).error.code).toBe('400');
      }
    });

    it('answers 400 for malformed JSON and missing requestId', async () => {
      for (const endpoint of [
        'auth-user-by-app',
        'cancel-auth-user-by-app',
        'auth-user-result-by-app',
      ]) {
        const malformed = await postJson(path(endpoint), '{"requestId":', shop);
        expect(malformed.status).toBe(400);
        expect(malformed.body).toEqual({ error: { code: '400', message: 'Malformed JSON body' } });
        const missing = await postJson(path(endpoint), { waitTime: 60 }, shop);
        expect(missing.status).toBe(400);
      }
    });
  });
});
