import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { submitOpenid4vpAuthorizationResponse } from '@openid4vc/openid4vp';
import { createTestDatabase, type TestDatabase } from '@itp/testing';
import { snapshotRedisKeys } from '../testing/redis-snapshot.js';
import {
  STAND_IN_CLIENT_ID,
  requestObjectClaims,
  startDidServiceStandIn,
  type DidServiceStandIn,
} from '../testing/did-service-stand-in.js';
import {
  basicAuth,
  newInternalApiToken,
  postJson,
  startAuthService,
  type RunningAuthService,
} from '../testing/start-auth-service.js';

// OpenID4VP login of web-site login requests against the real Redis and PostgreSQL, with a
// stand-in for did-service's internal API (request objects and the check of a vp_token).

const PUBLIC_URL = 'https://api.example.test';
const SITE = { id: 'shop', secret: 'shop-secret-123456', prefixes: ['http://shop.example/'] };
const shop = { authorization: basicAuth(SITE.id, SITE.secret) };
const ID = '[A-Za-z0-9_-]{43}';
const ACCESS_DENIED = { error: 'access_denied', error_description: expect.any(String) };

let db: TestDatabase;
let did: DidServiceStandIn;
let auth: RunningAuthService;
/** How far the service's clock (login requests and OpenID4VP sessions) is ahead of the real one. */
let skewMs = 0;

beforeAll(async () => {
  db = await createTestDatabase();
  const token = newInternalApiToken();
  did = await startDidServiceStandIn(token);
  auth = await startAuthService(
    {
      DATABASE_URL: db.url,
      DID_SERVICE_INTERNAL_URL: did.url,
      INTERNAL_TOKEN_AUTH_TO_DID: token,
      PUBLIC_URL: `${PUBLIC_URL}/`,
      LOGIN_POLL_MIN_INTERVAL_MS: '0',
    },
    { clock: () => Date.now() + skewMs },
  );
  await auth.domain.userAdmin.add({
    id: 'alice',
    password: 'alice-password',
    name: 'Alice',
    email: 'alice@example.com',
  });
  await auth.domain.userAdmin.add({ id: 'mallory', password: 'mallory-password', name: 'M' });
  await auth.domain.userAdmin.setEnabled('mallory', false);
  await auth.domain.clientAdmin.add({
    id: SITE.id,
    secret: SITE.secret,
    requestIdPrefixes: SITE.prefixes,
  });
});

afterAll(async () => {
  await auth?.close();
  await did?.close();
  await db?.drop();
});

interface ByApp {
  requestId: string;
  waitTime: number;
  openid4vpUri?: string;
}

/** auth-user-by-app as the site calls it. */
async function byApp(waitTime = 60): Promise<ByApp> {
  const res = await postJson(
    `${auth.url}/v2/auth/auth-user-by-app`,
    { requestId: 'http://shop.example/login?', waitTime },
    shop,
  );
  expect(res.status).toBe(200);
  return res.body as ByApp;
}

/** The request URI and the session id of an openid4vpUri. */
function parseUri(uri: string): { clientId: string; requestUri: string; id: string } {
  const url = new URL(uri);
  const requestUri = url.searchParams.get('request_uri') ?? '';
  return {
    clientId: url.searchParams.get('client_id') ?? '',
    requestUri,
    id: requestUri.split('/').pop() ?? '',
  };
}

/** The request URI's path on the service itself (PUBLIC_URL is the gateway's, not listening). */
const local = (publicUri: string) => `${auth.url}${new URL(publicUri).pathname}`;

const getRequestObject = (id: string) => fetch(`${auth.url}/v2/auth/oid4vp/request/${id}`);

/** A wallet's direct_post. */
async function postResponse(id: string, form: Record<string, string> | string) {
  const res = await fetch(`${auth.url}/v2/auth/oid4vp/response/${id}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: typeof form === 'string' ? form : new URLSearchParams(form).toString(),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: JSON.parse(text) as unknown };
}

/** by-app, then the wallet's fetch of the request object: what a wallet knows. */
async function walletSession(waitTime = 60) {
  const created = await byApp(waitTime);
  const { id, requestUri } = parseUri(created.openid4vpUri ?? '');
  const res = await fetch(local(requestUri));
  expect(res.status).toBe(200);
  const claims = requestObjectClaims(await res.text());
  return { ...created, id, claims };
}

/**
 * A wallet's error response (OpenID4VP 1.0 §8.5) as @openid4vc/openid4vp submits it: the payload
 * form-encoded (direct_post) to the response_uri of the request.
 */
async function submitError(id: string, payload: Record<string, string>) {
  const { response } = await submitOpenid4vpAuthorizationResponse({
    authorizationRequestPayload: { response_uri: `${auth.url}/v2/auth/oid4vp/response/${id}` },
    authorizationResponsePayload: payload as never,
    callbacks: {},
  });
  return { status: response.status, body: (await response.json()) as unknown };
}

const poll = (requestId: string) =>
  postJson(`${auth.url}/v2/auth/auth-user-result-by-app`, { requestId }, shop);

describe('auth-user-by-app with OpenID4VP', () => {
  it('answers openid4vpUri beside the unchanged fields, naming a one-time request URI under PUBLIC_URL', async () => {
    const created = await byApp(90);
    expect(Object.keys(created).sort()).toEqual(['openid4vpUri', 'requestId', 'waitTime']);
    expect(created.requestId).toMatch(/^http:\/\/shop\.example\/login\?requestId=\d{52}$/);
    expect(created.waitTime).toBe(90);
    expect(created.openid4vpUri).toMatch(
      new RegExp(
        `^openid4vp://\\?client_id=${encodeURIComponent(STAND_IN_CLIENT_ID)}&request_uri=${encodeURIComponent(`${PUBLIC_URL}/v2/auth/oid4vp/request/`)}${ID}$`,
      ),
    );
    const { clientId, requestUri, id } = parseUri(created.openid4vpUri ?? '');
    expect(clientId).toBe(STAND_IN_CLIENT_ID);
    expect(requestUri).toBe(`${PUBLIC_URL}/v2/auth/oid4vp/request/${id}`);

    // did-service was asked with a fresh state and nonce and the response URI of the same id.
    const asked = did.calls('/internal/v1/oid4vp/request-object').at(-1) as Record<string, unknown>;
    expect(asked).toEqual({
      state: expect.stringMatching(new RegExp(`^${ID}$`)),
      nonce: expect.stringMatching(new RegExp(`^${ID}$`)),
      responseUri: `${PUBLIC_URL}/v2/auth/oid4vp/response/${id}`,
      expiresInSeconds: 90,
    });
    expect(asked.state).not.toEqual(asked.nonce);
    const other = parseUri((await byApp()).openid4vpUri ?? '');
    expect(other.id).not.toBe(id);
  });

  it('answers 200 without openid4vpUri when did-service is unavailable, and the requestId still works', async () => {
    did.setDown(true);
    let created: ByApp;
    try {
      created = await byApp();
    } finally {
      did.setDown(false);
    }
    expect(Object.keys(created).sort()).toEqual(['requestId', 'waitTime']);
    const res = await postJson(`${auth.url}/v2/auth/auth-user-with-vp`, {
      vp: did.loginVpFor('alice'),
      requestId: created.requestId,
    });
    expect(res.status).toBe(200);
    expect((await poll(created.requestId)).body).toMatchObject({ userId: 'alice' });
  });

  it('answers 200 without openid4vpUri when did-service answers something unexpected', async () => {
    did.setBroken(true);
    try {
      expect(Object.keys(await byApp()).sort()).toEqual(['requestId', 'waitTime']);
    } finally {
      did.setBroken(false);
    }
  });
});

describe('GET /v2/auth/oid4vp/request/{id}', () => {
  it('answers the request object once (application/oauth-authz-req+jwt, no-store), then 404', async () => {
    const { openid4vpUri } = await byApp();
    const { requestUri, id } = parseUri(openid4vpUri ?? '');
    const res = await fetch(local(requestUri));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/oauth-authz-req+jwt');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const jwt = await res.text();
    expect(jwt).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(requestObjectClaims(jwt).response_uri).toBe(
      `${PUBLIC_URL}/v2/auth/oid4vp/response/${id}`,
    );

    const again = await getRequestObject(id);
    expect(again.status).toBe(404);
    expect(await again.json()).toEqual({
      error: 'invalid_request',
      error_description: expect.any(String),
    });
  });

  it('gives the request object to one of concurrent fetches', async () => {
    const { id } = parseUri((await byApp()).openid4vpUri ?? '');
    const answers = await Promise.all(Array.from({ length: 5 }, () => getRequestObject(id)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 404, 404, 404, 404]);
  });

  it('answers 404 invalid_request for an unknown id and a malformed one', async () => {
    for (const id of ['A'.repeat(43), 'not-an-id']) {
      const res = await getRequestObject(id);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await res.json()).toEqual({
        error: 'invalid_request',
        error_description: expect.any(String),
      });
    }
  });

  it('answers 404 once the login request timed out', async () => {
    const { id } = parseUri((await byApp(1)).openid4vpUri ?? '');
    skewMs += 1_000; // the waitTime of 1 s runs out on the service's clock
    const res = await getRequestObject(id);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: 'invalid_request' });
  });
});

describe('POST /v2/auth/oid4vp/response/{id}', () => {
  it('approves the login request for the verified user; the site poll returns the login result once', async () => {
    const session = await walletSession();
    expect((await poll(session.requestId)).status).toBe(401);
    const res = await postResponse(session.id, {
      vp_token: did.vpTokenFor('alice', session.claims.nonce),
      state: session.claims.state,
    });
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: {} });
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(did.calls('/internal/v1/oid4vp/verify-response').at(-1)).toEqual({
      vpToken: did.vpTokenFor('alice', session.claims.nonce),
      nonce: session.claims.nonce,
      clientId: STAND_IN_CLIENT_ID,
    });
    const result = await poll(session.requestId);
    expect(result.status).toBe(200);
    expect(result.body).toEqual({
      token: expect.any(String),
      userId: 'alice',
      name: 'Alice',
      telNo: null,
      email: 'alice@example.com',
    });
    await expect(
      auth.domain.ownTokens.verify((result.body as { token: string }).token),
    ).resolves.toMatchObject({ userId: 'alice' });
    expect((await poll(session.requestId)).status).toBe(400);

    // Answered once: a replay of the same answer is refused.
    const replay = await postResponse(session.id, {
      vp_token: did.vpTokenFor('alice', session.claims.nonce),
      state: session.claims.state,
    });
    expect(replay.status).toBe(400);
    expect(replay.body).toEqual({
      error: 'invalid_request',
      error_description: expect.any(String),
    });
  });

  it('refuses a wrong state with 400 invalid_request and leaves the request open', async () => {
    const session = await walletSession();
    const wrong = await postResponse(session.id, {
      vp_token: did.vpTokenFor('alice', session.claims.nonce),
      state: 'x'.repeat(43),
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
    const right = await postResponse(session.id, {
      vp_token: did.vpTokenFor('alice', session.claims.nonce),
      state: session.claims.state,
    });
    expect(right.status).toBe(200);
  });

  it('lets exactly one of concurrent answers through', async () => {
    const session = await walletSession();
    const form = {
      vp_token: did.vpTokenFor('alice', session.claims.nonce),
      state: session.claims.state,
    };
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => postResponse(session.id, form)),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400, 400, 400, 400, 400]);
    expect((await poll(session.requestId)).status).toBe(200);
  });

  it('takes a wallet’s error response (access_denied): the site poll answers 400 access_denied at once', async () => {
    const session = await walletSession();
    const checked = did.calls('/internal/v1/oid4vp/verify-response').length;
    expect((await poll(session.requestId)).status).toBe(401);
    const declined = await submitError(session.id, {
      error: 'access_denied',
      error_description: 'The user declined',
      state: session.claims.state,
    });
    expect(declined).toEqual({ status: 200, body: {} });
    // Nothing to check at did-service.
    expect(did.calls('/internal/v1/oid4vp/verify-response')).toHaveLength(checked);
    // Not 401 "still waiting" until waitTime: declined, with its own code, on every poll.
    for (let i = 0; i < 2; i += 1) {
      const answer = await poll(session.requestId);
      expect({ status: answer.status, body: answer.body }).toEqual({
        status: 400,
        body: { error: { code: 'access_denied', message: expect.any(String) } },
      });
    }
    // The session is used up: neither another error response nor an answer goes through.
    const again = await submitError(session.id, {
      error: 'access_denied',
      state: session.claims.state,
    });
    expect(again).toEqual({
      status: 400,
      body: { error: 'invalid_request', error_description: expect.any(String) },
    });
    const answer = await postResponse(session.id, {
      vp_token: did.vpTokenFor('alice', session.claims.nonce),
      state: session.claims.state,
    });
    expect(answer.status).toBe(400);
    // Cancelling a declined request is fine.
    const cancel = await postJson(
      `${auth.url}/v2/auth/cancel-auth-user-by-app`,
      { requestId: session.requestId },
      shop,
    );
    expect(cancel.status).toBe(200);
  });

  it('refuses an error response with a wrong state or without state (400 invalid_request) and leaves the request pending', async () => {
    const session = await walletSession();
    const invalid = { error: 'invalid_request', error_description: expect.any(String) };
    expect(
      await submitError(session.id, { error: 'access_denied', state: 'x'.repeat(43) }),
    ).toEqual({ status: 400, body: invalid });
    expect(await submitError(session.id, { error: 'access_denied' })).toEqual({
      status: 400,
      body: invalid,
    });
    expect(await submitError('A'.repeat(43), { error: 'access_denied', state: 'x' })).toEqual({
      status: 400,
      body: invalid,
    });
    expect((await poll(session.requestId)).status).toBe(401);
    const right = await postResponse(session.id, {
      vp_token: did.vpTokenFor('alice', session.claims.nonce),
      state: session.claims.state,
    });
    expect(right.status).toBe(200);
  });

  it('answers 400 access_denied for a refused presentation, saying nothing about the user', async () => {
    const session = await walletSession();
    const before = did.calls('/internal/v1/oid4vp/verify-response').length;
    // A presentation made for another nonce: did-service refuses it.
    const refused = await postResponse(session.id, {
      vp_token: did.vpTokenFor('alice', 'another-nonce'),
      state: session.claims.state,
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual(ACCESS_DENIED);
    expect(refused.text).not.toMatch(/alice|invalid_vp|does not verify|did:/i);
    expect(did.calls('/internal/v1/oid4vp/verify-response')).toHaveLength(before + 1);
    expect((await poll(session.requestId)).status).toBe(401);

    // A verified presentation of a disabled user: the same answer.
    const disabled = await walletSession();
    const res = await postResponse(disabled.id, {
      vp_token: did.vpTokenFor('mallory', disabled.claims.nonce),
      state: disabled.claims.state,
    });
    expect(res.status).toBe(400);
    expect(res.text).toBe(refused.text);
    expect((await poll(disabled.requestId)).status).toBe(401);
  });

  it('answers 503 temporarily_unavailable while did-service cannot check, and takes the answer afterwards', async () => {
    const session = await walletSession();
    const form = {
      vp_token: did.vpTokenFor('alice', session.claims.nonce),
      state: session.claims.state,
    };
    did.setDown(true);
    let down;
    try {
      down = await postResponse(session.id, form);
    } finally {
      did.setDown(false);
    }
    expect(down.status).toBe(503);
    expect(down.body).toEqual({
      error: 'temporarily_unavailable',
      error_description: expect.any(String),
    });
    expect(Number(down.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await postResponse(session.id, form)).status).toBe(200);
    expect((await poll(session.requestId)).status).toBe(200);
  });

  it('answers 502 server_error when did-service answers the check with something unexpected', async () => {
    const session = await walletSession();
    did.setBroken(true);
    let res;
    try {
      res = await postResponse(session.id, {
        vp_token: did.vpTokenFor('alice', session.claims.nonce),
        state: session.claims.state,
      });
    } finally {
      did.setBroken(false);
    }
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ error: 'server_error', error_description: expect.any(String) });
    expect((await poll(session.requestId)).status).toBe(401);
  });

  it('answers 400 invalid_request for malformed bodies, unknown and expired sessions; 413 over the limit', async () => {
    const session = await walletSession();
    const vp_token = did.vpTokenFor('alice', session.claims.nonce);
    const { state } = session.claims;
    const invalid = { error: 'invalid_request', error_description: expect.any(String) };
    for (const body of [
      '',
      `vp_token=${encodeURIComponent(vp_token)}`,
      `state=${state}`,
      `vp_token=${encodeURIComponent(vp_token)}&state=${state}&state=${state}`,
      '%E0%A4%A',
    ]) {
      const res = await postResponse(session.id, body);
      expect({ body, status: res.status, answer: res.body }).toEqual({
        body,
        status: 400,
        answer: invalid,
      });
    }
    const json = await fetch(`${auth.url}/v2/auth/oid4vp/response/${session.id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ vp_token, state }),
    });
    expect(json.status).toBe(400);
    expect(await json.json()).toEqual(invalid);
    const huge = await postResponse(
      session.id,
      `vp_token=${'a'.repeat(1024 * 1024)}&state=${state}`,
    );
    expect(huge.status).toBe(413);
    expect(huge.body).toEqual(invalid);
    // None of those used up the session.
    expect((await postResponse(session.id, { vp_token, state })).status).toBe(200);

    const unknown = await postResponse('A'.repeat(43), { vp_token, state });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual(invalid);

    const late = await walletSession(1);
    skewMs += 1_000;
    const expired = await postResponse(late.id, {
      vp_token: did.vpTokenFor('alice', late.claims.nonce),
      state: late.claims.state,
    });
    expect(expired.status).toBe(400);
    expect(expired.body).toEqual(invalid);
  });

  it('refuses an answer replayed to a Redis that went back in time (400 invalid_request), before and after the site collected the result', async () => {
    for (const sitePolledFirst of [false, true]) {
      const session = await walletSession();
      const form = {
        vp_token: did.vpTokenFor('alice', session.claims.nonce),
        state: session.claims.state,
      };
      // Redis as it was before the answer: the session and the login request pending.
      const beforeAnswer = await snapshotRedisKeys(auth.config.REDIS_KEY_PREFIX!);
      expect((await postResponse(session.id, form)).status).toBe(200);
      if (sitePolledFirst) {
        expect((await poll(session.requestId)).body).toMatchObject({ userId: 'alice' });
      }
      await beforeAnswer();
      expect((await auth.domain.kv.get(`oid4vp:${session.id}`)) ?? '').toContain('"pending"');
      const replay = await postResponse(session.id, form);
      expect({ sitePolledFirst, status: replay.status, body: replay.body }).toEqual({
        sitePolledFirst,
        status: 400,
        body: { error: 'invalid_request', error_description: expect.any(String) },
      });
      // The request stays as Redis shows it (pending): no (second) login result.
      expect((await poll(session.requestId)).status).toBe(401);
    }
  });

  it('does not let the phone app approve again a request whose result the site collected, when Redis went back to before the approval', async () => {
    const { requestId } = await byApp();
    const beforeApproval = await snapshotRedisKeys(auth.config.REDIS_KEY_PREFIX!);
    const approve = () =>
      postJson(`${auth.url}/v2/auth/auth-user-with-vp`, {
        vp: did.loginVpFor('alice'), // a new presentation each time (a replay is refused anyway)
        requestId,
      });
    expect((await approve()).status).toBe(200);
    expect((await poll(requestId)).status).toBe(200);
    await beforeApproval();
    expect((await approve()).status).toBe(400);
    expect((await poll(requestId)).status).toBe(401);
  });

  it('hands a login result out once also when Redis goes back to before the poll (the request approved again)', async () => {
    const session = await walletSession();
    expect(
      (
        await postResponse(session.id, {
          vp_token: did.vpTokenFor('alice', session.claims.nonce),
          state: session.claims.state,
        })
      ).status,
    ).toBe(200);
    const beforePoll = await snapshotRedisKeys(auth.config.REDIS_KEY_PREFIX!);
    expect((await poll(session.requestId)).status).toBe(200);
    await beforePoll();
    const again = await poll(session.requestId);
    expect(again.status).toBe(400);
    expect(again.body).not.toHaveProperty('token');
  });

  it('keeps the legacy flow: the phone app approves the same request by its requestId, then the wallet answer is refused', async () => {
    const session = await walletSession();
    const app = await postJson(`${auth.url}/v2/auth/auth-user-with-vp`, {
      vp: did.loginVpFor('alice'),
      requestId: session.requestId,
    });
    expect(app.status).toBe(200);
    expect(app.body).toMatchObject({ userId: 'alice', token: expect.any(String) });
    const wallet = await postResponse(session.id, {
      vp_token: did.vpTokenFor('alice', session.claims.nonce),
      state: session.claims.state,
    });
    expect(wallet.status).toBe(400);
    expect(wallet.body).toMatchObject({ error: 'invalid_request' });
    expect((await poll(session.requestId)).body).toMatchObject({ userId: 'alice' });
  });
});
