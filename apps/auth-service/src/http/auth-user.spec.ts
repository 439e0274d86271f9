import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { createJwtVerifier } from '@itp/auth-jwt';
import { createTestDatabase, waitFor, type TestDatabase } from '@itp/testing';
import {
  postJson,
  startAuthService,
  type RunningAuthService,
} from '../testing/start-auth-service.js';

const ALICE = {
  id: 'alice',
  password: 'alice-password-1',
  name: 'Alice Example',
  email: 'alice@example.com',
  telNo: '+81 3 1234 5678',
};

describe('POST /v2/auth/auth-user (real PostgreSQL and Redis)', () => {
  let db: TestDatabase;
  let auth: RunningAuthService;
  let login: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    auth = await startAuthService({
      DATABASE_URL: db.url,
      LOGIN_MAX_FAILURES_PER_ID: '3',
      LOGIN_MAX_FAILURES_PER_IP: '6',
      LOGIN_ID_MAX_DELAY_SECONDS: '2',
    });
    login = `${auth.url}/v2/auth/auth-user`;
    await auth.domain.userAdmin.add(ALICE);
    await auth.domain.userAdmin.add({ id: 'bob', password: 'bob-password-1', name: 'Bob' });
    await auth.domain.userAdmin.add({ id: 'carol', password: 'carol-password', name: 'Carol' });
    await auth.domain.userAdmin.setEnabled('carol', false);
  });

  afterAll(async () => {
    await auth?.close();
    await db?.drop();
  });

  /** Each test uses its own client address (X-Forwarded-For from a trusted loopback peer). */
  let nextIp = 1;
  const fromNewIp = () => ({ 'x-forwarded-for': `198.51.100.${nextIp++}` });

  it('logs in and returns the login result with a verifiable ES256 JWT', async () => {
    const res = await postJson(
      login,
      { id: 'alice', password: ALICE.password, userType: 'member' },
      fromNewIp(),
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      token: expect.any(String),
      userId: 'alice',
      name: 'Alice Example',
      telNo: '+81 3 1234 5678',
      email: 'alice@example.com',
    });
    const { token } = res.body as { token: string };
    const header = decodeProtectedHeader(token);
    expect(header).toMatchObject({ alg: 'ES256', kid: auth.domain.jwks.keys[0]!.kid });
    const claims = decodeJwt(token);
    expect(claims).toMatchObject({ iss: 'itp-auth', aud: 'itp', sub: 'alice' });
    expect(claims.exp! - claims.iat!).toBe(3600);
    expect(claims.jti).toEqual(expect.any(String));
    const verifier = createJwtVerifier({
      jwksUrl: `${auth.url}/v2/auth/.well-known/jwks.json`,
      issuer: 'itp-auth',
      audience: 'itp',
    });
    await expect(verifier.verify(token)).resolves.toMatchObject({ userId: 'alice' });
  });

  it('answers telNo null and email "" as stored', async () => {
    const res = await postJson(login, { id: 'bob', password: 'bob-password-1' }, fromNewIp());
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ userId: 'bob', name: 'Bob', telNo: null, email: '' });
  });

  describe('token extension', () => {
    const first = async (ip: Record<string, string>) => {
      const res = await postJson(login, { id: 'alice', password: ALICE.password }, ip);
      return (res.body as { token: string }).token;
    };

    it('with the token in the body: a new JWT whose exp is later', async () => {
      const ip = fromNewIp();
      const old = await first(ip);
      const res = await postJson(login, { id: 'alice', password: ALICE.password, token: old }, ip);
      expect(res.status).toBe(200);
      const renewed = (res.body as { token: string }).token;
      expect(renewed).not.toBe(old);
      expect(decodeJwt(renewed).exp!).toBeGreaterThan(decodeJwt(old).exp!);
      expect(decodeJwt(renewed).jti).not.toBe(decodeJwt(old).jti);
    });

    it('with the token in Authorization: Bearer: a new JWT whose exp is later', async () => {
      const ip = fromNewIp();
      const old = await first(ip);
      const res = await postJson(
        login,
        { id: 'alice', password: ALICE.password },
        { ...ip, authorization: `Bearer ${old}` },
      );
      expect(res.status).toBe(200);
      expect(decodeJwt((res.body as { token: string }).token).exp!).toBeGreaterThan(
        decodeJwt(old).exp!,
      );
    });

    it('refuses to extend the token of a user disabled since (401)', async () => {
      const ip = fromNewIp();
      await auth.domain.userAdmin.add({ id: 'ivan', password: 'ivan-password', name: 'Ivan' });
      const first = await postJson(login, { id: 'ivan', password: 'ivan-password' }, ip);
      expect(first.status).toBe(200);
      const token = (first.body as { token: string }).token;
      await auth.domain.userAdmin.setEnabled('ivan', false);
      for (const extend of [
        () => postJson(login, { id: 'ivan', password: 'ivan-password', token }, ip),
        () =>
          postJson(
            login,
            { id: 'ivan', password: 'ivan-password' },
            { ...ip, authorization: `Bearer ${token}` },
          ),
      ]) {
        const res = await extend();
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ error: { code: '401', message: 'Invalid id or password' } });
      }
    });

    it("refuses another user's token, a forged token and a malformed Bearer header", async () => {
      const ip = fromNewIp();
      const bobs = await postJson(login, { id: 'bob', password: 'bob-password-1' }, ip);
      const bobToken = (bobs.body as { token: string }).token;
      const other = await postJson(
        login,
        { id: 'alice', password: ALICE.password, token: bobToken },
        ip,
      );
      expect(other.status).toBe(401);
      expect(other.body).toEqual({
        error: { code: '401', message: 'The token to extend belongs to another user' },
      });
      const [h, p] = bobToken.split('.');
      const forged = await postJson(
        login,
        { id: 'alice', password: ALICE.password, token: `${h}.${p}.AAAA` },
        ip,
      );
      expect(forged.status).toBe(401);
      const badHeader = await postJson(
        login,
        { id: 'alice', password: ALICE.password },
        { ...ip, authorization: 'Bearer not a token' },
      );
      expect(badHeader.status).toBe(401);
    });
  });

  it('gives a wrong password, an unknown id and a disabled user the same 401', async () => {
    const ip = fromNewIp();
    const answers = await Promise.all([
      postJson(login, { id: 'alice', password: 'wrong-password' }, ip),
      postJson(login, { id: 'nobody', password: 'whatever-password' }, ip),
      postJson(login, { id: 'carol', password: 'carol-password' }, ip),
    ]);
    for (const res of answers) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: { code: '401', message: 'Invalid id or password' } });
      expect(res.headers.get('retry-after')).toBeNull();
    }
  });

  it('forged addresses cannot lock the owner out: the id is only slowed down briefly', async () => {
    const id = 'bob';
    // The attack: wrong passwords, each from another (forged) X-Forwarded-For address.
    let failures = 0;
    for (let i = 0; i < 8; i += 1) {
      const res = await postJson(login, { id, password: `wrong-${i}` }, fromNewIp());
      if (res.status === 401) failures += 1;
      else {
        expect(res.status).toBe(429);
        expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(2);
      }
    }
    expect(failures).toBeGreaterThan(3);
    // The owner, from yet another address: at most one short hold, then the password works.
    const owner = () => postJson(login, { id, password: 'bob-password-1' }, fromNewIp());
    let res = await owner();
    if (res.status === 429) {
      expect(res.body).toEqual({
        error: { code: '429', message: 'Too many failed attempts; try again later' },
      });
      const retryAfter = Number(res.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(2); // LOGIN_ID_MAX_DELAY_SECONDS, never 15 min
      // Attempts refused during the hold are not failures: ask again until the hold is over,
      // which must be within Retry-After.
      res = await waitFor(
        async () => {
          const next = await owner();
          return next.status === 429 ? undefined : next;
        },
        { what: 'the end of the hold', timeoutMs: retryAfter * 1000 + 200, intervalMs: 50 },
      );
    }
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ userId: 'bob' });
  });

  it("holds the guesser's own address (429 for the window), not the owner's", async () => {
    await auth.domain.userAdmin.add({ id: 'gina', password: 'gina-password', name: 'Gina' });
    const guesser = fromNewIp();
    for (let i = 0; i < 3; i += 1) {
      expect((await postJson(login, { id: 'gina', password: `guess-${i}` }, guesser)).status).toBe(
        401,
      );
    }
    const held = await postJson(login, { id: 'gina', password: 'gina-password' }, guesser);
    expect(held.status).toBe(429);
    const retryAfter = Number(held.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(2);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    const owner = await postJson(login, { id: 'gina', password: 'gina-password' }, fromNewIp());
    expect(owner.status).toBe(200);
  });

  it('a database error during login is a 503, counts nothing, and the login works once it is back', async () => {
    await auth.domain.userAdmin.add({ id: 'hank', password: 'hank-password', name: 'Hank' });
    const ip = fromNewIp();
    const outage = jest.spyOn(auth.domain.users, 'findById').mockRejectedValue(
      // As pg fails a query when the server is gone.
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
    );
    try {
      for (let i = 0; i < 5; i += 1) {
        const res = await postJson(login, { id: 'hank', password: 'hank-password' }, ip);
        expect(res.status).toBe(503);
        expect(res.body).toEqual({ error: { code: '503', message: expect.any(String) } });
        expect(res.text).not.toMatch(/ECONNREFUSED|5432/);
      }
    } finally {
      outage.mockRestore();
    }
    const res = await postJson(login, { id: 'hank', password: 'hank-password' }, ip);
    expect(res.status).toBe(200);
  });

  it('refuses control characters in the id with 400 (never 500 or 503), and counts nothing', async () => {
    for (const id of ['alice\u0000', '\u0000', 'al\nice', 'alice\u007f']) {
      const res = await postJson(login, { id, password: ALICE.password }, fromNewIp());
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: { code: '400', message: expect.any(String) } });
    }
    const ok = await postJson(login, { id: 'alice', password: ALICE.password }, fromNewIp());
    expect(ok.status).toBe(200);
  });

  it('a client that logged in as the user is not held by the per-id count after its own typos', async () => {
    const ip = fromNewIp();
    await auth.domain.userAdmin.add({ id: 'dave', password: 'dave-password', name: 'Dave' });
    for (let round = 0; round < 2; round += 1) {
      for (let i = 0; i < 2; i += 1) {
        expect((await postJson(login, { id: 'dave', password: 'nope-nope' }, ip)).status).toBe(401);
      }
      expect((await postJson(login, { id: 'dave', password: 'dave-password' }, ip)).status).toBe(
        200,
      );
    }
  });

  it('rate limits failures per client IP across ids', async () => {
    const ip = fromNewIp();
    for (let i = 0; i < 6; i += 1) {
      const res = await postJson(login, { id: `ghost-${i}`, password: 'wrong-password' }, ip);
      expect(res.status).toBe(401);
    }
    const limited = await postJson(login, { id: 'alice', password: ALICE.password }, ip);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    const elsewhere = await postJson(login, { id: 'alice', password: ALICE.password }, fromNewIp());
    expect(elsewhere.status).toBe(200);
  });

  describe('bad input is a 400 (or 413), never a 500', () => {
    const cases: Array<[string, unknown, Record<string, string>]> = [
      ['malformed JSON', '{"id": "alice", "password": ', {}],
      ['a JSON array', '[1,2]', {}],
      ['a JSON string', '"alice"', {}],
      ['a missing password', { id: 'alice' }, {}],
      ['a numeric id', { id: 42, password: 'x' }, {}],
      ['an empty id', { id: '', password: 'x' }, {}],
      ['a non-string token', { id: 'alice', password: 'x', token: 5 }, {}],
      ['no JSON content type', 'id=alice&password=x', { 'content-type': 'text/plain' }],
    ];

    it.each(cases)('%s', async (_label, body, headers) => {
      const res = await postJson(login, body, { ...fromNewIp(), ...headers });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: { code: '400', message: expect.any(String) } });
      expect(res.text).not.toMatch(/at .*\.ts/);
    });

    /** A login body of exactly `size` bytes: alice's credentials plus an ignored `pad` member. */
    const paddedLogin = (size: number) => {
      const head = `{"id":"alice","password":"${ALICE.password}","pad":"`;
      const body = `${head}${'x'.repeat(size - head.length - 2)}"}`;
      expect(Buffer.byteLength(body)).toBe(size);
      return body;
    };

    it('a body of exactly BODY_LIMIT_BYTES is read (unknown members ignored); one byte more is 413', async () => {
      const limit = auth.config.BODY_LIMIT_BYTES;
      expect(limit).toBe(1024 * 1024);
      const atLimit = await postJson(login, paddedLogin(limit), fromNewIp());
      expect(atLimit.status).toBe(200);
      expect(atLimit.body).toMatchObject({ userId: 'alice' });
      const over = await postJson(login, paddedLogin(limit + 1), fromNewIp());
      expect(over.status).toBe(413);
      expect(over.body).toEqual({
        error: { code: '413', message: 'Request body is larger than the limit' },
      });
    });

    it('a body over the limit', async () => {
      const res = await postJson(
        login,
        { id: 'alice', password: 'x'.repeat(1024 * 1024 + 10) },
        fromNewIp(),
      );
      expect(res.status).toBe(413);
      expect(res.body).toEqual({ error: { code: '413', message: expect.any(String) } });
    });
  });
});

describe('auth-user with the default TRUST_PROXY (trust nobody)', () => {
  let db: TestDatabase;
  let auth: RunningAuthService;

  beforeAll(async () => {
    db = await createTestDatabase();
    auth = await startAuthService({
      DATABASE_URL: db.url,
      TRUST_PROXY: undefined,
      LOGIN_MAX_FAILURES_PER_ID: '3',
    });
    await auth.domain.userAdmin.add({ id: 'judy', password: 'judy-password', name: 'Judy' });
  });

  afterAll(async () => {
    await auth?.close();
    await db?.drop();
  });

  it('ignores X-Forwarded-For: a direct caller cannot pick its own address to dodge the limit', async () => {
    expect(auth.config.TRUST_PROXY).toBe(false);
    const login = `${auth.url}/v2/auth/auth-user`;
    for (let i = 0; i < 3; i += 1) {
      const res = await postJson(
        login,
        { id: 'judy', password: `guess-${i}` },
        { 'x-forwarded-for': `203.0.113.${i + 1}` },
      );
      expect(res.status).toBe(401);
    }
    // All three counted for this caller's real address (127.0.0.1), whatever it claimed.
    const held = await postJson(
      login,
      { id: 'judy', password: 'judy-password' },
      { 'x-forwarded-for': '198.51.100.200' },
    );
    expect(held.status).toBe(429);
    expect(Number(held.headers.get('retry-after'))).toBeGreaterThan(60);
  });
});

describe('auth-user failures take similar time (real PostgreSQL and Redis)', () => {
  let db: TestDatabase;
  let auth: RunningAuthService;

  beforeAll(async () => {
    db = await createTestDatabase();
    auth = await startAuthService({
      DATABASE_URL: db.url,
      LOGIN_MAX_FAILURES_PER_ID: '100',
      LOGIN_MAX_FAILURES_PER_IP: '100',
    });
    await auth.domain.userAdmin.add({ id: 'erin', password: 'erin-password', name: 'Erin' });
    await auth.domain.userAdmin.add({ id: 'frank', password: 'frank-password', name: 'Frank' });
    await auth.domain.userAdmin.setEnabled('frank', false);
  });

  afterAll(async () => {
    await auth?.close();
    await db?.drop();
  });

  it('a wrong password, an unknown id and a disabled user get the same 401', async () => {
    const cases = [
      { id: 'erin', password: 'not-erins-password' },
      { id: 'nobody-at-all', password: 'whatever-password' },
      { id: 'frank', password: 'frank-password' },
    ];
    for (const body of cases) {
      const res = await postJson(`${auth.url}/v2/auth/auth-user`, body);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: { code: '401', message: 'Invalid id or password' } });
    }
  });
});

describe('GET /v2/auth/.well-known/jwks.json', () => {
  let db: TestDatabase;
  let auth: RunningAuthService;

  beforeAll(async () => {
    db = await createTestDatabase();
    auth = await startAuthService({ DATABASE_URL: db.url, JWKS_MAX_AGE_SECONDS: '120' });
  });

  afterAll(async () => {
    await auth?.close();
    await db?.drop();
  });

  it('publishes the public parts only, cacheable', async () => {
    const res = await fetch(`${auth.url}/v2/auth/.well-known/jwks.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=120');
    const body = (await res.json()) as { keys: Array<Record<string, unknown>> };
    expect(body.keys).toHaveLength(1);
    expect(Object.keys(body.keys[0]!).sort()).toEqual([
      'alg',
      'crv',
      'kid',
      'kty',
      'use',
      'x',
      'y',
    ]);
    expect(body.keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
  });

  it('has no demo user or demo client outside development mode', async () => {
    expect(auth.config.APP_ENV).not.toBe('development');
    expect(await auth.domain.users.findById('demo')).toBeUndefined();
    expect(await auth.domain.clients.findById('demo-site')).toBeUndefined();
    const res = await postJson(`${auth.url}/v2/auth/auth-user`, {
      id: 'demo',
      password: 'demo-password',
    });
    expect(res.status).toBe(401);
  });

  it('is ready when Redis and PostgreSQL answer', async () => {
    const res = await fetch(`${auth.url}/health/ready`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ checks: { redis: 'ok', database: 'ok' } });
  });
});
