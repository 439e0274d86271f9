/**
 * One account, one key ring (docs/api.md §12) over HTTP against real PostgreSQL, Redis and the dev
 * chain: a reset ends every way in that came before it (old JWTs, linked addresses, credentials,
 * approved web-site logins), the user sees and ends them (account, logout everywhere), and adding
 * a way in needs a fresh login (step-up, RFC 9470). Each rule is tried as the attacker would.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Wallet } from 'ethers';
import { SiweMessage } from 'siwe';
import { createPublicClient, http } from 'viem';
import { TOKEN_ENDED_MESSAGE } from '@itp/auth-jwt';
import { createTestDatabase, testChainUrl, type TestDatabase } from '@itp/testing';
import { parseSigningKeys } from '../jwt/signing-keys.js';
import { TokenIssuer } from '../jwt/token-issuer.js';
import { APPROVAL_ENDED_MESSAGE } from '../users/account-rules.js';
import {
  basicAuth,
  newSigningKeysSecret,
  postJson,
  startAuthService,
  type JsonAnswer,
  type RunningAuthService,
} from '../testing/start-auth-service.js';

type EthersSigner = Pick<Wallet, 'address' | 'signMessage'>;

describe('the account key ring over HTTP (real PostgreSQL, Redis and dev chain)', () => {
  let db: TestDatabase;
  let auth: RunningAuthService;
  let signingKeys: string;
  const path = (name: string) => `${auth.url}/v2/auth/${name}`;
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const errorOf = (answer: JsonAnswer) =>
    (answer.body as { error: { code: string; message: string } }).error;

  async function getJson(name: string, token: string): Promise<JsonAnswer> {
    const res = await fetch(path(name), { headers: bearer(token) });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: JSON.parse(text), text };
  }

  async function passwordLogin(id: string, password = `${id}-password-1`): Promise<string> {
    const answer = await postJson(path('auth-user'), { id, password });
    expect(answer.status).toBe(200);
    return (answer.body as { token: string }).token;
  }

  async function signed(wallet: EthersSigner) {
    const issued = (await postJson(path('siwe/nonce'), {})).body as {
      nonce: string;
      domain: string;
      uri: string;
      chainId: number;
    };
    const message = new SiweMessage({
      domain: issued.domain,
      address: wallet.address,
      statement: 'Sign in',
      uri: issued.uri,
      version: '1',
      chainId: issued.chainId,
      nonce: issued.nonce,
      issuedAt: new Date().toISOString(),
    }).prepareMessage();
    return { message, signature: await wallet.signMessage(message) };
  }

  /** A JWT of this service for `userId` whose login (`auth_time`) was `secondsAgo` ago. */
  async function tokenFrom(userId: string, secondsAgo: number): Promise<string> {
    const [key] = await parseSigningKeys(signingKeys);
    const issuer = new TokenIssuer(
      key!,
      { issuer: auth.config.JWT_ISSUER, audience: auth.config.JWT_AUDIENCE, ttlSeconds: 3600 },
      () => Date.now() - secondsAgo * 1000,
    );
    return (await issuer.issue({ id: userId, tokensValidAfter: 0 })).token;
  }

  beforeAll(async () => {
    db = await createTestDatabase();
    const chainId = await createPublicClient({ transport: http(testChainUrl()) }).getChainId();
    signingKeys = await newSigningKeysSecret();
    auth = await startAuthService({
      DATABASE_URL: db.url,
      JWT_SIGNING_KEYS: signingKeys,
      ETH_RPC_URL: testChainUrl(),
      CHAIN_ID: String(chainId),
    });
    for (const id of ['alice', 'bob', 'carol', 'dave', 'erin']) {
      await auth.domain.userAdmin.add({
        id,
        password: `${id}-password-1`,
        name: id,
        email: `${id}@example.com`,
      });
    }
  });

  afterAll(async () => {
    await auth?.close();
    await db?.drop();
  });

  it('a password reset ends the intruder: his old JWT, the address he linked, and asks did-service to revoke credentials', async () => {
    const intruderToken = await passwordLogin('alice');
    const intruderWallet = Wallet.createRandom();
    expect(
      (await postJson(path('link-address'), await signed(intruderWallet), bearer(intruderToken)))
        .status,
    ).toBe(200);
    expect((await postJson(path('auth-user-with-siwe'), await signed(intruderWallet))).status).toBe(
      200,
    );
    expect((await getJson('account', intruderToken)).status).toBe(200);

    const outcome = await auth.domain.userAdmin.resetPassword('alice', 'alice-password-2');
    expect(outcome).toEqual({
      unlinked: [intruderWallet.address.toLowerCase()],
      keptAddresses: [],
      credentialsRevoked: true,
      removedPasskeys: 0,
      keptPasskeys: [],
    });

    // The old JWT: refused at once on every route that takes it.
    const refused = await getJson('account', intruderToken);
    expect(refused.status).toBe(401);
    expect(errorOf(refused).message).toBe(TOKEN_ENDED_MESSAGE);
    const relink = await postJson(
      path('link-address'),
      await signed(Wallet.createRandom()),
      bearer(intruderToken),
    );
    expect(relink.status).toBe(401);
    // The address he linked logs nobody in.
    expect((await postJson(path('auth-user-with-siwe'), await signed(intruderWallet))).status).toBe(
      401,
    );
    // The old password is refused, the new one logs in (after the refusal: the path after a mistake).
    expect(
      (await postJson(path('auth-user'), { id: 'alice', password: 'alice-password-1' })).status,
    ).toBe(401);
    const fresh = await passwordLogin('alice', 'alice-password-2');
    const account = await getJson('account', fresh);
    expect(account.status).toBe(200);
    expect(account.body).toEqual({
      userId: 'alice',
      name: 'alice',
      email: 'alice@example.com',
      linkedAddresses: [],
      sites: [],
      passkeys: [],
    });
    // did-service is asked to revoke every credential issued before the reset (the outbox).
    const pending = await auth.domain.database.db
      .selectFrom('auth_credential_revocations')
      .selectAll()
      .where('user_id', '=', 'alice')
      .executeTakeFirstOrThrow();
    expect(pending.delivered_at).toBeNull();
    expect(Number(pending.issued_before)).toBeGreaterThan(Math.floor(Date.now() / 1000) - 60);
  });

  it('a reset with --keep-keys ends the tokens but keeps the linked addresses (printed for review)', async () => {
    const token = await passwordLogin('bob');
    const wallet = Wallet.createRandom();
    expect((await postJson(path('link-address'), await signed(wallet), bearer(token))).status).toBe(
      200,
    );
    const outcome = await auth.domain.userAdmin.resetPassword('bob', 'bob-password-2', {
      keepKeys: true,
    });
    expect(outcome).toEqual({
      unlinked: [],
      keptAddresses: [wallet.address.toLowerCase()],
      credentialsRevoked: false,
      removedPasskeys: 0,
      keptPasskeys: [],
    });
    expect((await getJson('account', token)).status).toBe(401);
    expect((await postJson(path('auth-user-with-siwe'), await signed(wallet))).status).toBe(200);
  });

  it('a disable ends every JWT from before it, also after the user is enabled again', async () => {
    const before = await passwordLogin('carol');
    await auth.domain.userAdmin.setEnabled('carol', false);
    expect((await getJson('account', before)).status).toBe(401);
    await auth.domain.userAdmin.setEnabled('carol', true);
    const after = await getJson('account', before);
    expect(after.status).toBe(401);
    expect(errorOf(after).message).toBe(TOKEN_ENDED_MESSAGE);
    expect((await getJson('account', await passwordLogin('carol'))).status).toBe(200);
    // did-service learns the epoch from the internal user status.
    const status = await postJson(
      `${auth.internalUrl}/internal/v1/users/status`,
      { userId: 'carol' },
      { authorization: `Bearer ${auth.config.INTERNAL_TOKEN_DID_TO_AUTH}` },
    );
    expect(status.body).toEqual({
      userId: 'carol',
      active: true,
      tokensValidAfter: expect.any(Number),
    });
    expect((status.body as { tokensValidAfter: number }).tokensValidAfter).toBeGreaterThan(0);
  });

  it('logout everywhere ends the JWT that asked and every other one; a new login works at once', async () => {
    const phone = await passwordLogin('dave');
    const laptop = await passwordLogin('dave');
    const answer = await postJson(path('logout-everywhere'), {}, bearer(laptop));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({});
    expect((await getJson('account', laptop)).status).toBe(401);
    expect((await getJson('account', phone)).status).toBe(401);
    expect((await postJson(path('logout-everywhere'), {}, bearer(phone))).status).toBe(401);
    // The same second as the logout: the new token is not ended by it.
    expect((await getJson('account', await passwordLogin('dave'))).status).toBe(200);
  });

  it('step-up: link-address needs a login within STEP_UP_MAX_AGE_SECONDS; an older one gets the RFC 9470 challenge, a fresh login then links', async () => {
    const wallet = Wallet.createRandom();
    const stale = await tokenFrom('erin', auth.config.STEP_UP_MAX_AGE_SECONDS + 60);
    // The stale token is still a valid token for reading.
    expect((await getJson('account', stale)).status).toBe(200);
    const refused = await postJson(path('link-address'), await signed(wallet), bearer(stale));
    expect(refused.status).toBe(401);
    expect(errorOf(refused).code).toBe('insufficient_user_authentication');
    expect(refused.headers.get('www-authenticate')).toBe(
      `Bearer error="insufficient_user_authentication", error_description="A more recent authentication is required", max_age=${auth.config.STEP_UP_MAX_AGE_SECONDS}`,
    );
    const recent = await tokenFrom('erin', auth.config.STEP_UP_MAX_AGE_SECONDS - 30);
    const linked = await postJson(path('link-address'), await signed(wallet), bearer(recent));
    expect(linked.status).toBe(200);
    const account = (await getJson('account', recent)).body as { linkedAddresses: unknown[] };
    expect(account.linkedAddresses).toEqual([
      { address: wallet.address.toLowerCase(), linkedAt: expect.any(String) },
    ]);
  });

  it('a web-site login approved before a reset is not handed out after it', async () => {
    await auth.domain.clientAdmin.add({
      id: 'shop',
      name: 'Shop',
      secret: 'shop-secret-0123456789',
      requestIdPrefixes: ['https://shop.example/'],
    });
    const site = { authorization: basicAuth('shop', 'shop-secret-0123456789') };
    const created = await postJson(
      path('auth-user-by-app'),
      { requestId: 'https://shop.example/', waitTime: 60 },
      site,
    );
    expect(created.status).toBe(200);
    const { requestId } = created.body as { requestId: string };
    await auth.domain.loginRequests.approveLoginRequest(requestId, 'erin');
    await auth.domain.userAdmin.resetPassword('erin', 'erin-password-2');
    const handOut = await postJson(path('auth-user-result-by-app'), { requestId }, site);
    expect(handOut.status).toBe(403);
    expect(errorOf(handOut).message).toBe(APPROVAL_ENDED_MESSAGE);
  });

  it('refuses the account routes without a bearer, with a malformed body, and revoke-site of a site without a grant', async () => {
    expect((await fetch(path('account'))).status).toBe(401);
    const token = await passwordLogin('bob', 'bob-password-2');
    expect((await postJson(path('revoke-site'), '{"clientId":', bearer(token))).status).toBe(400);
    expect((await postJson(path('revoke-site'), { clientId: 42 }, bearer(token))).status).toBe(400);
    const none = await postJson(path('revoke-site'), { clientId: 'nobody' }, bearer(token));
    expect(none.status).toBe(404);
  });
});
