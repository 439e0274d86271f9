import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { decodeJwt } from 'jose';
import * as oidc from 'openid-client';
import type { Browser, Page } from 'playwright-core';
import { createTestDatabase, freePort, uniquePrefix, type TestDatabase } from '@itp/testing';
import { launchChromium } from '@itp/testing/chromium';
import {
  createPasskey,
  getPasskeyAssertion,
  VirtualAuthenticator,
} from '@itp/testing/virtual-authenticator';
import { parseSigningKeys } from '../jwt/signing-keys.js';
import { TokenIssuer } from '../jwt/token-issuer.js';
import {
  newSigningKeysSecret,
  postJson,
  startAuthService,
  type JsonAnswer,
  type RunningAuthService,
} from '../testing/start-auth-service.js';

/**
 * Passkeys through the API (docs/api.md §13) with Chromium's own WebAuthn: a virtual CTAP2
 * authenticator (resident keys, user verification) in a page on PUBLIC_URL's origin
 * (http://localhost:<port>, RP id `localhost`) runs navigator.credentials with the WebAuthn JSON
 * helpers; two auth-service replicas share PostgreSQL and Redis.
 */
const SITE = {
  id: 'passkey-shop',
  secret: 'passkey-shop-secret-1',
  /** The site's callback: a local server of this spec (set in beforeAll). */
  redirectUri: '',
};

describe('passkeys (Chromium virtual authenticator, two replicas)', () => {
  let db: TestDatabase;
  let a: RunningAuthService;
  let b: RunningAuthService;
  let browser: Browser;
  let origin: string;
  let signingKeys: string;
  let site: Server;

  beforeAll(async () => {
    db = await createTestDatabase();
    const port = await freePort();
    origin = `http://localhost:${port}`;
    signingKeys = await newSigningKeysSecret();
    // The site's callback page (the code is redeemed by the test with openid-client).
    site = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/plain' }).end('the site'),
    );
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    SITE.redirectUri = `http://localhost:${(site.address() as AddressInfo).port}/oidc/callback`;
    const shared = {
      DATABASE_URL: db.url,
      REDIS_KEY_PREFIX: uniquePrefix('auth'),
      JWT_SIGNING_KEYS: signingKeys,
      PUBLIC_URL: origin,
      LOGIN_MAX_FAILURES_PER_ID: '3',
      LOGIN_PAGE_PRODUCT_NAME: 'Passkey Test',
    };
    a = await startAuthService({ ...shared, PORT: String(port) });
    b = await startAuthService(shared);
    await a.domain.clientAdmin.add({
      id: SITE.id,
      name: 'Passkey Shop',
      secret: SITE.secret,
      requestIdPrefixes: ['https://shop.example/'],
      redirectUris: [SITE.redirectUri],
    });
    for (const id of [
      'alice',
      'bob',
      'carol',
      'dave',
      'erin',
      'frank',
      'gail',
      'hank',
      'ivy',
      'jack',
    ]) {
      await a.domain.userAdmin.add({ id, password: `${id}-password`, name: id.toUpperCase() });
    }
    browser = await launchChromium('the passkeys spec');
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => site?.close(resolve));
    await b?.close();
    await a?.close();
    await db?.drop();
  });

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const errorOf = (answer: JsonAnswer) =>
    (answer.body as { error: { code: string; message: string } }).error;

  async function passwordLogin(id: string): Promise<string> {
    const answer = await postJson(`${a.url}/v2/auth/auth-user`, { id, password: `${id}-password` });
    expect(answer.status).toBe(200);
    return (answer.body as { token: string }).token;
  }

  /** A page on PUBLIC_URL's origin with its own authenticator (one device of the user). */
  async function device(): Promise<{ page: Page; authenticator: VirtualAuthenticator }> {
    const page = await browser.newPage();
    await page.goto(`${origin}/health/live`);
    return { page, authenticator: await VirtualAuthenticator.attach(page) };
  }

  /** Registers a passkey for `token`'s user on `page`'s authenticator (options on a, the rest on b). */
  async function register(page: Page, token: string, name?: string) {
    const options = await postJson(
      `${a.url}/v2/auth/passkeys/registration-options`,
      {},
      bearer(token),
    );
    expect(options.status).toBe(200);
    const response = await createPasskey(page, options.body);
    const added = await postJson(
      `${b.url}/v2/auth/passkeys`,
      { response, ...(name ? { name } : {}) },
      bearer(token),
    );
    return { options: options.body as Record<string, unknown>, response, added };
  }

  /** An assertion of `page`'s authenticator to fresh authentication options (from `via`). */
  async function assertion(page: Page, via = a): Promise<Record<string, unknown>> {
    const options = await postJson(`${via.url}/v2/auth/passkeys/authentication-options`, {});
    expect(options.status).toBe(200);
    expect(options.headers.get('cache-control')).toBe('no-store');
    return getPasskeyAssertion(page, options.body);
  }

  const passkeyLogin = (response: unknown, via = b) =>
    postJson(`${via.url}/v2/auth/auth-user-with-passkey`, { response });

  it('registers a discoverable passkey with user verification and lists it in the account', async () => {
    const { page } = await device();
    const token = await passwordLogin('alice');
    const { options, added } = await register(page, token, 'Laptop');
    expect(options).toMatchObject({
      rp: { id: 'localhost', name: 'Passkey Test' },
      user: { name: 'alice', displayName: 'ALICE' },
      attestation: 'none',
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      excludeCredentials: [],
    });
    // The WebAuthn user handle is not the user id.
    expect(Buffer.from((options.user as { id: string }).id, 'base64url').toString()).not.toContain(
      'alice',
    );
    expect(added.status).toBe(201);
    const passkey = added.body as { id: string; name: string; createdAt: string };
    expect(passkey).toEqual({
      id: expect.any(String),
      name: 'Laptop',
      createdAt: expect.any(String),
    });
    const account = await fetch(`${a.url}/v2/auth/account`, { headers: bearer(token) });
    expect(((await account.json()) as { passkeys: unknown }).passkeys).toEqual([passkey]);
    // The next registration options exclude it (one authenticator, one passkey per account).
    const again = await postJson(
      `${a.url}/v2/auth/passkeys/registration-options`,
      {},
      bearer(token),
    );
    expect(
      (again.body as { excludeCredentials: Array<{ id: string }> }).excludeCredentials,
    ).toEqual([expect.objectContaining({ id: passkey.id, type: 'public-key' })]);
    await page.close();
  });

  it('logs in with the passkey alone (options on one replica, the assertion on the other): a fresh login for step-up', async () => {
    const { page } = await device();
    await register(page, await passwordLogin('bob'));
    const login = await passkeyLogin(await assertion(page, a), b);
    expect(login.status).toBe(200);
    const result = login.body as { token: string; userId: string; name: string };
    expect(result).toMatchObject({ userId: 'bob', name: 'BOB' });
    const claims = decodeJwt(result.token);
    expect(Math.abs((claims.auth_time as number) - Date.now() / 1000)).toBeLessThan(10);
    // A passkey login is a fresh authentication: it may add a way in at once.
    const stepUp = await postJson(
      `${a.url}/v2/auth/passkeys/registration-options`,
      {},
      bearer(result.token),
    );
    expect(stepUp.status).toBe(200);
    const account = (await (
      await fetch(`${a.url}/v2/auth/account`, { headers: bearer(result.token) })
    ).json()) as { passkeys: Array<{ lastUsedAt?: string }> };
    expect(account.passkeys[0]!.lastUsedAt).toEqual(expect.any(String));
    await page.close();
  });

  it('answers a challenge once: a replayed assertion is refused, and of two replicas taking it at once one logs in', async () => {
    const { page } = await device();
    await register(page, await passwordLogin('carol'));
    const response = await assertion(page);
    const [first, second] = await Promise.all([
      passkeyLogin(response, a),
      passkeyLogin(response, b),
    ]);
    expect([first.status, second.status].sort()).toEqual([200, 401]);
    const replay = await passkeyLogin(response, a);
    expect(replay.status).toBe(401);
    expect(errorOf(replay).message).toMatch(/challenge was used or has expired/);
    // A registration response cannot be registered twice either.
    const token = await passwordLogin('carol');
    const { response: registration } = await register(page, token).catch(() => ({
      response: undefined,
    }));
    expect(registration).toBeUndefined(); // the authenticator refuses: excludeCredentials
    await page.close();
  });

  it('refuses a removed passkey (401) and a removal by someone else (404); removal needs a fresh login', async () => {
    const { page } = await device();
    const token = await passwordLogin('dave');
    const { added } = await register(page, token);
    const { id } = added.body as { id: string };
    const stranger = await passwordLogin('alice');
    const foreign = await postJson(`${a.url}/v2/auth/passkeys/remove`, { id }, bearer(stranger));
    expect(foreign.status).toBe(404);
    const stale = await oldToken('dave', a.config.STEP_UP_MAX_AGE_SECONDS + 60);
    const notFresh = await postJson(`${a.url}/v2/auth/passkeys/remove`, { id }, bearer(stale));
    expect(notFresh.status).toBe(401);
    expect(errorOf(notFresh).code).toBe('insufficient_user_authentication');
    expect(notFresh.headers.get('www-authenticate')).toMatch(/insufficient_user_authentication/);
    const removed = await postJson(`${b.url}/v2/auth/passkeys/remove`, { id }, bearer(token));
    expect(removed.status).toBe(200);
    const refused = await passkeyLogin(await assertion(page));
    expect(refused.status).toBe(401);
    expect(errorOf(refused).message).toMatch(/not registered here/);
    expect((await postJson(`${b.url}/v2/auth/passkeys/remove`, { id }, bearer(token))).status).toBe(
      404,
    );
    await page.close();
  });

  it('refuses a disabled user (401); failures count per owner like failed passwords (then 429), the password login stays open', async () => {
    const { page } = await device();
    await register(page, await passwordLogin('erin'));
    await a.domain.userAdmin.setEnabled('erin', false);
    for (let i = 0; i < 3; i++) {
      expect((await passkeyLogin(await assertion(page))).status).toBe(401);
    }
    expect((await passkeyLogin(await assertion(page))).status).toBe(429);
    await a.domain.userAdmin.setEnabled('erin', true);
    // Its own count: refused passkeys do not hold the owner's password login.
    expect(await passwordLogin('erin')).toEqual(expect.any(String));
    await page.close();
  });

  it('refuses a cloned authenticator: its signature counter goes back', async () => {
    const original = await device();
    await register(original.page, await passwordLogin('frank'));
    expect((await passkeyLogin(await assertion(original.page))).status).toBe(200);
    const [credential] = await original.authenticator.credentials();
    expect(credential!.signCount).toBeGreaterThan(0);
    expect((await passkeyLogin(await assertion(original.page))).status).toBe(200);
    const clone = await device();
    await clone.authenticator.addCredential(credential!);
    const refused = await passkeyLogin(await assertion(clone.page));
    expect(refused.status).toBe(401);
    expect(errorOf(refused).message).toMatch(/counter/i);
    // The original keeps working.
    expect((await passkeyLogin(await assertion(original.page))).status).toBe(200);
    await original.page.close();
    await clone.page.close();
  });

  it('a password reset removes passkeys unless --keep-keys', async () => {
    const { page } = await device();
    await register(page, await passwordLogin('gail'), 'Phone');
    await a.domain.userAdmin.resetPassword('gail', 'gail-password', { keepKeys: true });
    expect((await passkeyLogin(await assertion(page))).status).toBe(200);
    const outcome = await a.domain.userAdmin.resetPassword('gail', 'gail-password');
    expect(outcome.removedPasskeys).toBe(1);
    expect((await passkeyLogin(await assertion(page))).status).toBe(401);
    await page.close();
  });

  it('answers bad input with 4xx, never a 500', async () => {
    const url = `${a.url}/v2/auth/auth-user-with-passkey`;
    expect((await postJson(url, '{not json')).status).toBe(400);
    expect((await postJson(url, {})).status).toBe(400);
    expect((await postJson(url, { response: { id: 'x' } })).status).toBe(400);
    const noChallenge = {
      id: 'AAAA',
      rawId: 'AAAA',
      type: 'public-key',
      response: { clientDataJSON: Buffer.from('{}').toString('base64url') },
      clientExtensionResults: {},
    };
    expect((await postJson(url, { response: noChallenge })).status).toBe(400);
    expect(
      (await postJson(url, { response: { ...noChallenge, id: 'x'.repeat(5000) } })).status,
    ).toBe(400);
    expect((await postJson(url, 'x'.repeat(2_000_000))).status).toBe(413);
    const register = await postJson(`${a.url}/v2/auth/passkeys`, { response: noChallenge });
    expect(register.status).toBe(401); // no Bearer
    const token = await passwordLogin('alice');
    const unknownChallenge = {
      ...noChallenge,
      response: {
        clientDataJSON: Buffer.from(
          JSON.stringify({ type: 'webauthn.create', challenge: 'A'.repeat(43) }),
        ).toString('base64url'),
      },
    };
    const refused = await postJson(
      `${a.url}/v2/auth/passkeys`,
      { response: unknownChallenge },
      bearer(token),
    );
    expect(refused.status).toBe(400);
    expect(errorOf(refused).message).toMatch(/challenge was used, has expired or was not issued/);
  });

  describe('on the OpenID Connect login page (openid-client as the site)', () => {
    let rp: oidc.Configuration;

    beforeAll(async () => {
      rp = await oidc.discovery(
        new URL(`${origin}/v2/auth/oidc`),
        SITE.id,
        SITE.secret,
        undefined,
        {
          execute: [oidc.allowInsecureRequests],
        },
      );
    });

    /**
     * The site's authorization request opened in `page`; the callback is caught, not loaded.
     * `autofill: false` takes the browser's conditional mediation away (the virtual
     * authenticator answers it at once), so that the button is the way in.
     */
    async function openLoginPage(page: Page, { autofill = false } = {}) {
      if (!autofill) {
        await page.addInitScript(() => {
          const pkc = (globalThis as { PublicKeyCredential?: Record<string, unknown> })
            .PublicKeyCredential;
          if (pkc) delete pkc.isConditionalMediationAvailable;
        });
      }
      const verifier = oidc.randomPKCECodeVerifier();
      const nonce = oidc.randomNonce();
      const state = oidc.randomState();
      const url = oidc.buildAuthorizationUrl(rp, {
        redirect_uri: SITE.redirectUri,
        scope: 'openid profile',
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        nonce,
        state,
      });
      await page.goto(url.href);
      return {
        /** Where the provider sent the browser back to the site (with the code). */
        callback: () => page.url(),
        redeem: (at: string) =>
          oidc.authorizationCodeGrant(rp, new URL(at), {
            pkceCodeVerifier: verifier,
            expectedNonce: nonce,
            expectedState: state,
          }),
      };
    }

    it('"Sign in with a passkey": the site gets an id_token with amr hwk, user, mfa and a fresh auth_time; the user id field offers passkey autofill', async () => {
      const { page } = await device();
      await register(page, await passwordLogin('hank'));
      const flow = await openLoginPage(page);
      expect(await page.getAttribute('#id', 'autocomplete')).toBe('username webauthn');
      await page.click('#passkey-button');
      await page.waitForURL(`${SITE.redirectUri}?**`);
      const tokens = await flow.redeem(flow.callback()!);
      const claims = tokens.claims()!;
      expect(claims).toMatchObject({ sub: 'hank', amr: ['hwk', 'user', 'mfa'] });
      expect(Math.abs(claims.auth_time! - Date.now() / 1000)).toBeLessThan(30);
      await page.close();
    });

    it('the passkey autofill on the user id field logs in by itself (conditional mediation)', async () => {
      const { page } = await device();
      await register(page, await passwordLogin('jack'));
      const flow = await openLoginPage(page, { autofill: true });
      await page.waitForURL(`${SITE.redirectUri}?**`);
      const claims = (await flow.redeem(flow.callback()!)).claims()!;
      expect(claims).toMatchObject({ sub: 'jack', amr: ['hwk', 'user', 'mfa'] });
      await page.close();
    });

    it('a refused passkey keeps every method on the page; the password then logs in', async () => {
      const { page } = await device();
      const token = await passwordLogin('ivy');
      const { added } = await register(page, token);
      await postJson(
        `${a.url}/v2/auth/passkeys/remove`,
        { id: (added.body as { id: string }).id },
        bearer(token),
      );
      const flow = await openLoginPage(page);
      await page.click('#passkey-button');
      await page.waitForSelector('#passkey-status:has-text("not registered here")');
      for (const selector of ['#passkey-button', '#id', '#password', '#cancel']) {
        expect(await page.isVisible(selector)).toBe(true);
      }
      expect(await page.isEnabled('#passkey-button')).toBe(true);
      await page.fill('#id', 'ivy');
      await page.fill('#password', 'ivy-password');
      await page.click('form[action$="/login"] button[type=submit]');
      await page.waitForURL(`${SITE.redirectUri}?**`);
      const claims = (await flow.redeem(flow.callback()!)).claims()!;
      expect(claims).toMatchObject({ sub: 'ivy', amr: ['pwd'] });
      await page.close();
    });
  });

  async function oldToken(userId: string, secondsAgo: number): Promise<string> {
    const [key] = await parseSigningKeys(signingKeys);
    const issuer = new TokenIssuer(
      key!,
      { issuer: a.config.JWT_ISSUER, audience: a.config.JWT_AUDIENCE, ttlSeconds: 3600 },
      () => Date.now() - secondsAgo * 1000,
    );
    return (await issuer.issue({ id: userId, tokensValidAfter: 0 })).token;
  }
});
