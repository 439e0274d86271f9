import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestDatabase, loseRedisData, type TestDatabase } from '@itp/testing';
import {
  basicAuth,
  startAuthService,
  type RunningAuthService,
} from '../testing/start-auth-service.js';
import { startVpLoginStack, type VpLoginStack } from '../testing/vp-login-stack.js';

// Answers are asserted field by field.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

describe('auth-user-with-vp: the seed identity flow through the gateway', () => {
  let stack: VpLoginStack;
  let holder: string;
  let userAuth: Record<string, string>;
  let vc: Json;
  let verifier: string;
  const shop = { authorization: basicAuth('shop', 'shop-secret-123456') };

  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${stack.gatewayUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as Json };
  };
  const rpc = async (method: string, params: unknown) =>
    (await post('/token', { jsonrpc: '2.0', id: 1, method, params })).body.result.resultData;
  const freshVp = async () => {
    const res = await post('/v2/did/create-vp', { holder, verifier, credentials: [vc] }, userAuth);
    expect(res.status).toBe(200);
    return res.body;
  };

  beforeAll(async () => {
    stack = await startVpLoginStack();
    const { userAdmin, clientAdmin } = stack.auth.domain;
    await userAdmin.add({
      id: 'alice',
      password: 'alice-password',
      name: 'Alice',
      email: 'alice@example.com',
    });
    await userAdmin.add({ id: 'mallory', password: 'mallory-password', name: 'Mallory' });
    await clientAdmin.add({
      id: 'shop',
      secret: 'shop-secret-123456',
      requestIdPrefixes: ['http://shop.example/'],
    });
    await clientAdmin.add({
      id: 'other',
      secret: 'other-secret-123456',
      requestIdPrefixes: ['http://shop.example/'],
    });

    // wallet address → create-did → password login → create-vc (the seed flow)
    const { address, secretKey } = await rpc('createAddress', {});
    const login = await post('/v2/auth/auth-user', { id: 'alice', password: 'alice-password' });
    expect(login.status).toBe(200);
    userAuth = { authorization: `Bearer ${login.body.token}` };
    const did = await post(
      '/v2/did/create-did',
      { alias: 'alice-phone', address, secretKey },
      userAuth,
    );
    expect(did.status).toBe(200);
    holder = did.body.did;
    const issuers = (await (await fetch(`${stack.gatewayUrl}/v2/did/issuers`)).json()) as Json;
    const issuer = issuers[0].did;
    const verifiers = (await (await fetch(`${stack.gatewayUrl}/v2/did/verifiers`)).json()) as Json;
    verifier = verifiers[0].did;
    const created = await post(
      '/v2/did/create-vc',
      { holder, issuer, userInfo: { name: 'Alice' } },
      userAuth,
    );
    expect(created.status).toBe(200);
    vc = created.body;
  }, 180_000);
  afterAll(async () => {
    await stack?.close();
  });

  it('logs the app in with a fresh VP (login result of §2.1) and refuses the same VP again', async () => {
    const vp = await freshVp();
    const res = await post('/v2/auth/auth-user-with-vp', { vp });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      token: expect.any(String),
      userId: 'alice',
      name: 'Alice',
      telNo: null,
      email: 'alice@example.com',
    });
    await expect(stack.auth.domain.ownTokens.verify(res.body.token)).resolves.toMatchObject({
      userId: 'alice',
    });
    const again = await post('/v2/auth/auth-user-with-vp', { vp });
    expect(again.status).toBe(401);
    expect(again.body.error.message).toContain('replayed');
  });

  it('20 concurrent sends of one VP log in once', async () => {
    const vp = await freshVp();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => post('/v2/auth/auth-user-with-vp', { vp })),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 401)).toHaveLength(19);
  });

  it('runs the QR web-site login: by-app → the app approves with a fresh VP and the requestId → result once', async () => {
    const request = await post(
      '/v2/auth/auth-user-by-app',
      { requestId: 'http://shop.example/login?', waitTime: 60 },
      shop,
    );
    expect(request.status).toBe(200);
    const { requestId } = request.body;
    const waiting = await post('/v2/auth/auth-user-result-by-app', { requestId }, shop);
    expect(waiting.status).toBe(401);

    const approved = await post('/v2/auth/auth-user-with-vp', { vp: await freshVp(), requestId });
    expect(approved.status).toBe(200);
    expect(approved.body.userId).toBe('alice');

    const result = await post('/v2/auth/auth-user-result-by-app', { requestId }, shop);
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({
      userId: 'alice',
      name: 'Alice',
      token: expect.any(String),
    });
    const once = await post('/v2/auth/auth-user-result-by-app', { requestId }, shop);
    expect(once.status).toBe(400);

    const twice = await post('/v2/auth/auth-user-with-vp', { vp: await freshVp(), requestId });
    expect(twice.status).toBe(400);
  });

  it('answers 400 for an unknown requestId and for a body without a VP', async () => {
    const unknown = await post('/v2/auth/auth-user-with-vp', {
      vp: await freshVp(),
      requestId: 'http://shop.example/login?requestId=123',
    });
    expect(unknown.status).toBe(400);
    expect((await post('/v2/auth/auth-user-with-vp', {})).status).toBe(400);
    // A VP nested 50,000 levels deep was a 503 (did-service's walk overflowed): a 400 here.
    const deep = `${'['.repeat(50_000)}${']'.repeat(50_000)}`;
    expect((await post('/v2/auth/auth-user-with-vp', `{"vp":{"x":${deep}}}`)).status).toBe(400);
    expect((await post('/v2/auth/auth-user-with-vp', { vp: 'eyJ.x.y' })).status).toBe(400);
    expect((await post('/v2/auth/auth-user-with-vp', { vp: { ...vc } })).status).toBe(400);
  });

  /** What a Redis that restarts empty does to auth-service: every key of it is gone. */
  const loseAuthRedisData = () => loseRedisData(stack.auth.config.REDIS_KEY_PREFIX ?? '');

  it('refuses a used VP again after Redis lost its data (the mark is in the database)', async () => {
    const vp = await freshVp();
    expect((await post('/v2/auth/auth-user-with-vp', { vp })).status).toBe(200);
    await loseAuthRedisData();
    const replay = await post('/v2/auth/auth-user-with-vp', { vp });
    expect(replay.status).toBe(401);
    expect(replay.body.error.code).toBe('401');
  });

  it('hands out an approved QR result once after Redis lost its data, and cancels stay cancelled', async () => {
    const create = async () =>
      (
        await post(
          '/v2/auth/auth-user-by-app',
          { requestId: 'http://shop.example/login?', waitTime: 60 },
          shop,
        )
      ).body.requestId as string;
    const requestId = await create();
    const approved = await post('/v2/auth/auth-user-with-vp', { vp: await freshVp(), requestId });
    expect(approved.status).toBe(200);
    expect(await loseAuthRedisData()).toBeGreaterThan(0);
    const result = await post('/v2/auth/auth-user-result-by-app', { requestId }, shop);
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ userId: 'alice', token: expect.any(String) });
    expect((await post('/v2/auth/auth-user-result-by-app', { requestId }, shop)).status).toBe(400);

    // Approved, then cancelled by the site: after the loss there is nothing to hand out.
    const cancelled = await create();
    expect(
      (await post('/v2/auth/auth-user-with-vp', { vp: await freshVp(), requestId: cancelled }))
        .status,
    ).toBe(200);
    expect(
      (await post('/v2/auth/cancel-auth-user-by-app', { requestId: cancelled }, shop)).status,
    ).toBe(200);
    await loseAuthRedisData();
    expect(
      (await post('/v2/auth/auth-user-result-by-app', { requestId: cancelled }, shop)).status,
    ).toBe(400);

    // Another client never gets someone else's approval, before or after the loss.
    const foreign = await create();
    await post('/v2/auth/auth-user-with-vp', { vp: await freshVp(), requestId: foreign });
    await loseAuthRedisData();
    const other = { authorization: basicAuth('other', 'other-secret-123456') };
    expect(
      (await post('/v2/auth/auth-user-result-by-app', { requestId: foreign }, other)).status,
    ).toBe(400);
    expect(
      (await post('/v2/auth/auth-user-result-by-app', { requestId: foreign }, shop)).status,
    ).toBe(200);
  });

  it('keeps how a request was approved (the OIDC amr) in the database too', async () => {
    const { domain } = stack.auth;
    const site = (await domain.clients.findById('shop'))!;
    const byWallet = await domain.loginRequests.openForClient(site, 60);
    await domain.loginRequests.approveLoginRequest(byWallet.requestId, 'alice', 'vp');
    await loseAuthRedisData();
    await expect(domain.loginRequests.takeApproval(site, byWallet.requestId)).resolves.toEqual({
      userId: 'alice',
      method: 'vp',
      approvedAt: expect.any(Number),
    });
  });

  it('refuses a tampered VP and a VP of a disabled user with 401', async () => {
    const vp = await freshVp();
    const tampered = await post('/v2/auth/auth-user-with-vp', { vp: { ...vp, holder: verifier } });
    expect(tampered.status).toBe(401);
    expect(tampered.body.error.code).toBe('401');

    await stack.auth.domain.userAdmin.setEnabled('alice', false);
    try {
      const disabled = await post('/v2/auth/auth-user-with-vp', { vp: await freshVp() });
      expect(disabled.status).toBe(401);
    } finally {
      await stack.auth.domain.userAdmin.setEnabled('alice', true);
    }
  });
});

describe('auth-user-with-vp without did-service configured', () => {
  let db: TestDatabase;
  let auth: RunningAuthService;
  beforeAll(async () => {
    db = await createTestDatabase();
    auth = await startAuthService({ DATABASE_URL: db.url });
  });
  afterAll(async () => {
    await auth?.close();
    await db?.drop();
  });

  it('answers 503, never 500', async () => {
    const res = await fetch(`${auth.url}/v2/auth/auth-user-with-vp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ vp: { type: ['VerifiablePresentation'] } }),
    });
    expect(res.status).toBe(503);
  });
});
