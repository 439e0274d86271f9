import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTcpProxy, type TcpProxy } from '@itp/harness';
import { createPublicClient, http } from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { createSiweMessage } from 'viem/siwe';
import {
  createTestDatabase,
  testChainUrl,
  waitFor,
  testRedisUrl,
  type TestDatabase,
} from '@itp/testing';
import {
  basicAuth,
  postJson,
  startAuthService,
  type JsonAnswer,
  type RunningAuthService,
} from './testing/start-auth-service.js';

// auth-service against real PostgreSQL and Redis, each reached through a TCP relay that the test
// cuts and restores: a dependency that goes down while the service runs.
// A dependency outage is a 503 with Retry-After — never a 500 "Internal error" — and never
// counts as a failed login.

const ALICE = { id: 'alice', password: 'alice-password-1', name: 'Alice' };
const SITE = {
  id: 'shop',
  secret: 'shop-secret-123456',
  prefixes: ['http://shop.example/'],
  redirectUri: 'http://shop.example/oidc/callback',
};

let db: TestDatabase;
let pgRelay: TcpProxy;
let redisRelay: TcpProxy;
let auth: RunningAuthService;

beforeAll(async () => {
  db = await createTestDatabase();
  pgRelay = await startTcpProxy(new URL(db.url).host);
  redisRelay = await startTcpProxy(new URL(testRedisUrl()).host);
  auth = await startAuthService({
    DATABASE_URL: pgRelay.proxiedUrl(db.url),
    REDIS_URL: redisRelay.proxiedUrl(testRedisUrl()),
    // Small limits: had the outage attempts been counted, the owner would be held or walled.
    LOGIN_MAX_FAILURES_PER_ID: '2',
    LOGIN_MAX_FAILURES_PER_IP: '3',
    LOGIN_ID_MAX_DELAY_SECONDS: '60',
    // Sign-In with Ethereum (its nonces in Redis, its links and nonce marks in PostgreSQL).
    ETH_RPC_URL: testChainUrl(),
    CHAIN_ID: String(await createPublicClient({ transport: http(testChainUrl()) }).getChainId()),
  });
  await auth.domain.userAdmin.add(ALICE);
  await auth.domain.clientAdmin.add({
    id: SITE.id,
    secret: SITE.secret,
    requestIdPrefixes: SITE.prefixes,
    redirectUris: [SITE.redirectUri],
  });
});

afterAll(async () => {
  await auth?.close();
  await Promise.all([pgRelay?.close(), redisRelay?.close()]);
  await db?.drop();
});

const CLIENT = { 'x-forwarded-for': '198.51.100.7' };
const login = (password = ALICE.password) =>
  postJson(`${auth.url}/v2/auth/auth-user`, { id: ALICE.id, password }, CLIENT);

/** A Sign-In with Ethereum message for `account` from a fresh nonce, signed. */
async function siweMessage(account: PrivateKeyAccount) {
  const issued = await postJson(`${auth.url}/v2/auth/siwe/nonce`, {}, CLIENT);
  expect(issued.status).toBe(200);
  const fields = issued.body as { nonce: string; domain: string; uri: string; chainId: number };
  const message = createSiweMessage({ ...fields, address: account.address, version: '1' });
  return { message, signature: await account.signMessage({ message }) };
}

/** A key account linked to Alice. */
async function linkedAccount(): Promise<PrivateKeyAccount> {
  const account = privateKeyToAccount(generatePrivateKey());
  const { token } = (await login()).body as { token: string };
  const linked = await postJson(`${auth.url}/v2/auth/link-address`, await siweMessage(account), {
    ...CLIENT,
    authorization: `Bearer ${token}`,
  });
  expect(linked.status).toBe(200);
  return account;
}

const siweLogin = (body: unknown) =>
  postJson(`${auth.url}/v2/auth/auth-user-with-siwe`, body, CLIENT);

function expectUnavailable(answer: JsonAnswer): void {
  expect(answer.status).toBe(503);
  expect(answer.body).toEqual({ error: { code: '503', message: expect.any(String) } });
  // The reason (e.g. "connection failed (ECONNREFUSED)") but never a host, port or URL.
  expect(answer.text).not.toMatch(/127\.0\.0\.1|:\d{2,5}\b|postgres:|redis:|Internal error/);
  const retryAfter = Number(answer.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThan(0);
}

/** Calls `attempt` until it answers `status` (a dependency coming back takes a moment). */
function answering(attempt: () => Promise<JsonAnswer>, status: number): Promise<JsonAnswer> {
  return waitFor(
    async () => {
      const answer = await attempt();
      return answer.status === status ? answer : undefined;
    },
    { what: `an answer ${status}`, intervalMs: 50 },
  );
}

describe('PostgreSQL unreachable', () => {
  it('auth-user with the right password answers 503 + Retry-After, and the user is not locked out', async () => {
    expect((await login()).status).toBe(200);
    await pgRelay.cut();
    try {
      // More attempts than every limit allows (2 per id, 3 per client address).
      for (let i = 0; i < 5; i++) expectUnavailable(await login());
      // A wrong password cannot be told apart either: also 503, also not counted.
      expectUnavailable(await login('wrong-password'));
      const ready = await fetch(`${auth.url}/health/ready`);
      expect(ready.status).toBe(503);
      expect(((await ready.json()) as { notReady: string[] }).notReady).toEqual(['database']);
      // Relying-party authentication reads the client table: 503 as well, no failure counted.
      const byApp = await postJson(
        `${auth.url}/v2/auth/auth-user-by-app`,
        { requestId: 'http://shop.example/login?', waitTime: 60 },
        { ...CLIENT, authorization: basicAuth(SITE.id, SITE.secret) },
      );
      expectUnavailable(byApp);
    } finally {
      await pgRelay.restore();
    }
    const back = await answering(() => login(), 200);
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ userId: ALICE.id, token: expect.any(String) });
  });

  it('Sign-In with Ethereum answers 503 (never 401, nothing counted) and works again after', async () => {
    const account = await linkedAccount();
    const prepared = await Promise.all([1, 2, 3, 4].map(() => siweMessage(account)));
    await pgRelay.cut();
    try {
      // More attempts than the per-address limit (3): none is counted as a failure.
      for (const body of prepared) expectUnavailable(await siweLogin(body));
    } finally {
      await pgRelay.restore();
    }
    const back = await answering(async () => siweLogin(await siweMessage(account)), 200);
    expect(back.body).toMatchObject({ userId: ALICE.id });
  });
});

describe('Redis unreachable', () => {
  it('auth-user, the web-site login requests and Sign-In with Ethereum answer 503 + Retry-After, never 500', async () => {
    expect((await login()).status).toBe(200);
    const prepared = await siweMessage(await linkedAccount());
    await redisRelay.cut();
    try {
      for (let i = 0; i < 3; i++) expectUnavailable(await login());
      const byApp = await postJson(
        `${auth.url}/v2/auth/auth-user-by-app`,
        { requestId: 'http://shop.example/login?', waitTime: 60 },
        { ...CLIENT, authorization: basicAuth(SITE.id, SITE.secret) },
      );
      expectUnavailable(byApp);
      const result = await postJson(
        `${auth.url}/v2/auth/auth-user-result-by-app`,
        { requestId: 'http://shop.example/login?requestId=1700000000000123456789' },
        { ...CLIENT, authorization: basicAuth(SITE.id, SITE.secret) },
      );
      expectUnavailable(result);
      // Sign-In with Ethereum: no nonce can be issued or checked.
      expectUnavailable(await postJson(`${auth.url}/v2/auth/siwe/nonce`, {}, CLIENT));
      expectUnavailable(await siweLogin(prepared));
    } finally {
      await redisRelay.restore();
    }
    expect((await answering(() => siweLogin(prepared), 200)).body).toMatchObject({
      userId: ALICE.id,
    });
    const back = await answering(() => login(), 200);
    expect(back.status).toBe(200);
    const request = await postJson(
      `${auth.url}/v2/auth/auth-user-by-app`,
      { requestId: 'http://shop.example/login?', waitTime: 60 },
      { ...CLIENT, authorization: basicAuth(SITE.id, SITE.secret) },
    );
    expect(request.status).toBe(200);
  });
});

describe('Redis unreachable, OpenID Connect provider', () => {
  it('answers temporarily_unavailable (503 at the token endpoint, also for a refresh; to the site at authorization), never 500', async () => {
    await redisRelay.cut();
    try {
      const tokenRequest = (params: Record<string, string>) =>
        fetch(`${auth.url}/v2/auth/oidc/token`, {
          method: 'POST',
          headers: {
            ...CLIENT,
            'content-type': 'application/x-www-form-urlencoded',
            authorization: basicAuth(SITE.id, SITE.secret),
          },
          body: new URLSearchParams(params).toString(),
        });
      const token = await tokenRequest({
        grant_type: 'authorization_code',
        code: 'a-code',
        redirect_uri: SITE.redirectUri,
        code_verifier: 'v'.repeat(43),
      });
      expect(token.status).toBe(503);
      expect(await token.json()).toMatchObject({ error: 'temporarily_unavailable' });
      // A refresh (its token is looked up in Redis): the same.
      const refresh = await tokenRequest({
        grant_type: 'refresh_token',
        refresh_token: 'r'.repeat(43),
      });
      expect(refresh.status).toBe(503);
      expect(await refresh.json()).toMatchObject({ error: 'temporarily_unavailable' });

      const authorize = await fetch(
        `${auth.url}/v2/auth/oidc/auth?${new URLSearchParams({
          client_id: SITE.id,
          redirect_uri: SITE.redirectUri,
          response_type: 'code',
          scope: 'openid',
          code_challenge: 'c'.repeat(43),
          code_challenge_method: 'S256',
        }).toString()}`,
        { redirect: 'manual', headers: CLIENT },
      );
      // The redirect URI is registered: the error goes back to the site (RFC 6749 §4.1.2.1).
      expect(authorize.status).toBe(303);
      const location = new URL(authorize.headers.get('location')!);
      expect(location.origin + location.pathname).toBe(SITE.redirectUri);
      expect(location.searchParams.get('error')).toBe('temporarily_unavailable');
    } finally {
      await redisRelay.restore();
    }
  });
});
