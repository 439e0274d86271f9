import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createRemoteJWKSet, decodeJwt, jwtVerify } from 'jose';
import { sha256Hex } from '@itp/crypto';
import { Redis } from 'ioredis';
import * as oidc from 'openid-client';
import { loadConfig } from '@itp/service-kit';
import { createPublicClient, http } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createSiweMessage } from 'viem/siwe';
import {
  createTestDatabase,
  freePort,
  loseRedisData,
  testChainUrl,
  testRedisUrl,
  uniquePrefix,
  type TestDatabase,
} from '@itp/testing';
import { attributeOf, OidcTestBrowser, type BrowserPage } from '../testing/oidc-browser.js';
import { snapshotRedisKeys } from '../testing/redis-snapshot.js';
import { authServiceConfigSchema } from '../config.js';
import {
  newSigningKeysSecret,
  postJson,
  startAuthService,
  type RunningAuthService,
} from '../testing/start-auth-service.js';

const decodeJwtHeaderAlg = (jwt: string): unknown =>
  (JSON.parse(Buffer.from(jwt.split('.')[0]!, 'base64url').toString()) as { alg?: unknown }).alg;

const SITE = {
  id: 'shop',
  secret: 'shop-secret-123456',
  redirectUri: 'https://shop.example/oidc/callback',
};

/**
 * The OpenID Connect provider (docs/api.md §9) with openid-client (panva) as the relying party,
 * over real PostgreSQL and Redis: two instances share them (authorization on one, token on the
 * other). The browser is OidcTestBrowser (cookies, redirects, forms); the Chromium runs are in
 * e2e/.
 */
describe('OpenID Connect provider (openid-client as the relying party)', () => {
  let db: TestDatabase;
  let a: RunningAuthService;
  let b: RunningAuthService;
  let issuer: string;
  let rp: oidc.Configuration;
  let shared: Record<string, string>;

  beforeAll(async () => {
    db = await createTestDatabase();
    const port = await freePort();
    shared = {
      DATABASE_URL: db.url,
      REDIS_KEY_PREFIX: uniquePrefix('auth'),
      JWT_SIGNING_KEYS: await newSigningKeysSecret(),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      LOGIN_POLL_MIN_INTERVAL_MS: '0',
      // Sign-In with Ethereum on the login page.
      ETH_RPC_URL: testChainUrl(),
      CHAIN_ID: String(await createPublicClient({ transport: http(testChainUrl()) }).getChainId()),
    };
    a = await startAuthService({ ...shared, PORT: String(port) });
    b = await startAuthService(shared);
    issuer = `${a.url}/v2/auth/oidc`;
    await a.domain.userAdmin.add({
      id: 'alice',
      password: 'alice-password',
      name: 'Alice',
      email: 'alice@example.com',
      telNo: '+15550100',
    });
    await a.domain.userAdmin.add({ id: 'bob', password: 'bob-password', name: 'Bob' });
    await a.domain.userAdmin.setEnabled('bob', false);
    await a.domain.clientAdmin.add({
      id: SITE.id,
      secret: SITE.secret,
      requestIdPrefixes: ['https://shop.example/'],
      redirectUris: [SITE.redirectUri],
    });
    rp = await oidc.discovery(new URL(issuer), SITE.id, SITE.secret, undefined, {
      execute: [oidc.allowInsecureRequests],
    });
  });

  afterAll(async () => {
    await b?.close();
    await a?.close();
    await db?.drop();
  });

  /** An authorization request as a site makes it, and what it must remember for the callback. */
  const authorization = async (extra: Record<string, string> = {}, provider = rp) => {
    const verifier = oidc.randomPKCECodeVerifier();
    const nonce = oidc.randomNonce();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(provider, {
      redirect_uri: SITE.redirectUri,
      scope: 'openid profile email phone',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      nonce,
      state,
      ...extra,
    });
    return { url, verifier, nonce, state };
  };

  /**
   * What the page's script does when the person picks the QR logins: `POST <interaction>/qr` (its
   * `data-qr-url`, same origin) for the page's QR logins (ADR 0036).
   */
  const qrLoginsOf = async (browser: OidcTestBrowser, page: BrowserPage, origin?: string) => {
    const qrUrl = attributeOf(page.html, 'qr-logins', 'data-qr-url');
    if (!qrUrl) throw new Error('the page has no place for QR logins');
    const answer = await browser.open(new URL(qrUrl, page.url).href, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: origin ?? new URL(page.url).origin,
      },
      body: '{}',
    });
    if (typeof answer === 'string') throw new Error(`unexpected redirect to ${answer}`);
    const body = answer.status === 200 ? JSON.parse(answer.html) : {};
    return {
      status: answer.status,
      qr: body.qr as
        | { requestId: string; requestIdQr: string; openid4vpUri?: string; openid4vpQr?: string }
        | undefined,
      notice: body.notice as string | undefined,
    };
  };

  const loginPage = async (browser: OidcTestBrowser, url: URL): Promise<BrowserPage> => {
    const page = await browser.open(url.href);
    if (typeof page === 'string') throw new Error(`expected the login page, reached ${page}`);
    expect(page.status).toBe(200);
    return page;
  };

  const passwordLogin = async (
    id: string,
    password: string,
    extra: Record<string, string> = {},
    provider = rp,
  ) => {
    const request = await authorization(extra, provider);
    const browser = new OidcTestBrowser(SITE.redirectUri);
    const page = await loginPage(browser, request.url);
    const action = /<form method="post" action="([^"]+)"/.exec(page.html)?.[1];
    // An absolute path: the same page answering a refused post (at `<uid>/login`) posts here too.
    expect(action).toMatch(/^\/v2\/auth\/oidc\/interaction\/[\w-]+\/login$/);
    const after = await browser.submit(page, action!, { id, password });
    return { request, browser, page, after };
  };

  /** The user logs out at the provider (end-session, "Log out"): the page it ends on. */
  const logOutAtProvider = async (
    browser: OidcTestBrowser,
    idToken: string,
    provider = rp,
  ): Promise<BrowserPage> => {
    const end = oidc.buildEndSessionUrl(provider, { id_token_hint: idToken });
    const confirm = (await browser.open(end.href)) as BrowserPage;
    expect(confirm.status).toBe(200);
    const action = /<form id="op\.logoutForm" method="post" action="([^"]+)">/.exec(confirm.html)!;
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(confirm.html)![1]!;
    return (await browser.submit(confirm, action[1]!, { xsrf, logout: 'yes' })) as BrowserPage;
  };

  const redeem = (
    callback: string,
    request: Awaited<ReturnType<typeof authorization>>,
    provider = rp,
  ) =>
    oidc.authorizationCodeGrant(provider, new URL(callback), {
      pkceCodeVerifier: request.verifier,
      expectedNonce: request.nonce,
      expectedState: request.state,
    });

  it('publishes discovery with PKCE S256, both secret methods and the service JWKS keys', async () => {
    const metadata = rp.serverMetadata();
    expect(metadata.issuer).toBe(issuer);
    expect(metadata.code_challenge_methods_supported).toEqual(['S256']);
    expect(metadata.token_endpoint_auth_methods_supported).toEqual(
      expect.arrayContaining(['client_secret_basic', 'client_secret_post']),
    );
    // OpenID Connect Discovery 1.0 §3: RS256 MUST be supported (the RSA key of JWT_SIGNING_KEYS).
    expect(metadata.id_token_signing_alg_values_supported).toEqual(['ES256', 'RS256']);
    const providerKeys = (await (await fetch(metadata.jwks_uri!)).json()) as {
      keys: Array<{ kid: string; kty: string; alg: string }>;
    };
    const serviceKeys = (await (await fetch(`${a.url}/v2/auth/.well-known/jwks.json`)).json()) as {
      keys: Array<{ kid: string }>;
    };
    // The provider publishes the service's EC keys and the RSA key; platform JWTs stay ES256.
    expect(providerKeys.keys.filter((k) => k.kty === 'EC').map((k) => k.kid)).toEqual(
      serviceKeys.keys.map((k) => k.kid),
    );
    expect(providerKeys.keys.filter((k) => k.kty === 'RSA').map((k) => k.alg)).toEqual(['RS256']);
    expect(JSON.stringify(serviceKeys)).not.toContain('"RSA"');
    for (const member of ['"d"', '"p"', '"q"', '"dp"', '"dq"', '"qi"']) {
      expect(JSON.stringify(providerKeys)).not.toContain(member);
    }
  });

  it('signs id_tokens RS256 for a site registered with it (openid-client checks them against the JWKS); ES256 for the others', async () => {
    const rsSite = { id: 'rs-shop', secret: 'rs-shop-secret-123456' };
    await a.domain.clientAdmin.add({
      ...rsSite,
      requestIdPrefixes: ['https://shop.example/'],
      redirectUris: [SITE.redirectUri],
      idTokenSigningAlg: 'RS256',
    });
    const rsProvider = await oidc.discovery(
      new URL(issuer),
      rsSite.id,
      { id_token_signed_response_alg: 'RS256' },
      oidc.ClientSecretBasic(rsSite.secret),
      { execute: [oidc.allowInsecureRequests] },
    );
    const { request, after } = await passwordLogin('alice', 'alice-password', {}, rsProvider);
    const tokens = await redeem(after as string, request, rsProvider);
    expect(decodeJwtHeaderAlg(tokens.id_token!)).toBe('RS256');
    expect(tokens.claims()).toMatchObject({ sub: 'alice', aud: rsSite.id, iss: issuer });
    const es = await passwordLogin('alice', 'alice-password');
    const esTokens = await redeem(es.after as string, es.request);
    expect(decodeJwtHeaderAlg(esTokens.id_token!)).toBe('ES256');
  });

  it('publishes RFC 8414 metadata at the path-inserted location: the discovery document, found by openid-client as an OAuth 2.0 client', async () => {
    const asClient = await oidc.discovery(new URL(issuer), SITE.id, SITE.secret, undefined, {
      execute: [oidc.allowInsecureRequests],
      algorithm: 'oauth2',
    });
    expect(asClient.serverMetadata()).toMatchObject({
      issuer,
      token_endpoint: `${issuer}/token`,
      authorization_endpoint: `${issuer}/auth`,
      jwks_uri: `${issuer}/jwks`,
    });
    const rfc8414 = await fetch(`${a.url}/.well-known/oauth-authorization-server/v2/auth/oidc`);
    expect(rfc8414.status).toBe(200);
    const discovery = await fetch(`${issuer}/.well-known/openid-configuration`);
    expect(await rfc8414.json()).toEqual(await discovery.json());
  });

  it('serves the provider JWKS with the Cache-Control of the REST JWKS (public, max-age=JWKS_MAX_AGE_SECONDS)', async () => {
    const rest = await fetch(`${a.url}/v2/auth/.well-known/jwks.json`);
    const provider = await fetch(rp.serverMetadata().jwks_uri!);
    expect(provider.status).toBe(200);
    expect(rest.headers.get('cache-control')).toBe(
      `public, max-age=${a.config.JWKS_MAX_AGE_SECONDS}`,
    );
    expect(provider.headers.get('cache-control')).toBe(rest.headers.get('cache-control'));
  });

  describe('refresh tokens (scope offline_access with prompt=consent)', () => {
    const OFFLINE = { scope: 'openid profile offline_access', prompt: 'consent' };
    const offlineLogin = async (id: string, password: string) => {
      const { request, after, browser } = await passwordLogin(id, password, OFFLINE);
      expect(typeof after).toBe('string');
      const code = new URL(after as string).searchParams.get('code')!;
      return { tokens: await redeem(after as string, request), browser, code };
    };
    const refuses = async (refreshToken: string) => {
      const err = await oidc.refreshTokenGrant(rp, refreshToken).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toMatchObject({ error: 'invalid_grant' });
    };

    it('are offered in discovery, with RFC 7009 revocation', () => {
      const metadata = rp.serverMetadata();
      expect(metadata.scopes_supported).toEqual(expect.arrayContaining(['offline_access']));
      expect(metadata.grant_types_supported).toEqual(
        expect.arrayContaining(['authorization_code', 'refresh_token']),
      );
      expect(metadata.revocation_endpoint).toBe(`${issuer}/token/revocation`);
    });

    it('none without offline_access, nor for offline_access without prompt=consent', async () => {
      const extras: Array<Record<string, string>> = [{}, { scope: 'openid offline_access' }];
      for (const extra of extras) {
        const { request, after } = await passwordLogin('alice', 'alice-password', extra);
        const tokens = await redeem(after as string, request);
        expect(tokens.access_token).toEqual(expect.any(String));
        expect(tokens.refresh_token).toBeUndefined();
      }
    });

    it('each refresh gives new tokens and a new refresh token; a used one again revokes the grant', async () => {
      const { tokens, code } = await offlineLogin('alice', 'alice-password');
      const first = tokens.refresh_token!;
      expect(first).toEqual(expect.any(String));
      const refreshed = await oidc.refreshTokenGrant(rp, first);
      const second = refreshed.refresh_token!;
      expect(second).toEqual(expect.any(String));
      expect(second).not.toBe(first);
      expect(refreshed.access_token).not.toBe(tokens.access_token);
      const { payload } = await jwtVerify(
        refreshed.id_token!,
        createRemoteJWKSet(new URL(rp.serverMetadata().jwks_uri!)),
        { issuer, audience: SITE.id, algorithms: ['ES256'] },
      );
      expect(payload).toMatchObject({ sub: 'alice', amr: ['pwd'], name: 'Alice' });
      const userinfo = await oidc.fetchUserInfo(rp, refreshed.access_token, 'alice');
      expect(userinfo.sub).toBe('alice');
      // At rest in Redis: no code, access token or refresh token in any key or value.
      const redis = new Redis(testRedisUrl());
      try {
        const secrets = [code, tokens.access_token, first, refreshed.access_token, second];
        const found: string[] = [];
        for (const key of await redis.keys(`${a.config.REDIS_KEY_PREFIX}*`)) {
          const value = (await redis.type(key)) === 'string' ? await redis.get(key) : '';
          for (const secret of secrets) {
            if (key.includes(secret) || value?.includes(secret)) found.push(key);
          }
        }
        expect(found).toEqual([]);
      } finally {
        redis.disconnect();
      }
      // The first one, used again (a stolen copy): refused, and the whole grant with it.
      await refuses(first);
      await refuses(second);
    });

    it('of two refreshes with one token at once, one succeeds', async () => {
      const { tokens } = await offlineLogin('alice', 'alice-password');
      const results = await Promise.allSettled([
        oidc.refreshTokenGrant(rp, tokens.refresh_token!),
        oidc.refreshTokenGrant(rp, tokens.refresh_token!),
      ]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
      expect(rejected.reason).toMatchObject({ error: 'invalid_grant' });
    });

    it('outlives a logout at the provider (offline access); revocation ends it', async () => {
      const { tokens, browser } = await offlineLogin('alice', 'alice-password');
      const loggedOut = await logOutAtProvider(browser, tokens.id_token!);
      expect(loggedOut.html).toContain('You are logged out');
      const refreshed = await oidc.refreshTokenGrant(rp, tokens.refresh_token!);
      expect((await oidc.fetchUserInfo(rp, refreshed.access_token, 'alice')).sub).toBe('alice');
      await oidc.tokenRevocation(rp, refreshed.refresh_token!);
      await refuses(refreshed.refresh_token!);
      // The grant's access tokens end with it (found through their grant: ADR 0037).
      await expect(oidc.fetchUserInfo(rp, refreshed.access_token, 'alice')).rejects.toBeDefined();
    });

    it('a password reset ends what came before it: refresh and access tokens, the browser session', async () => {
      await a.domain.userAdmin.add({ id: 'erin', password: 'erin-password', name: 'Erin' });
      const { tokens, browser } = await offlineLogin('erin', 'erin-password');
      // Token times are whole seconds: the reset comes in a later second than the login.
      await new Promise((resolve) => setTimeout(resolve, 1100));
      await a.domain.userAdmin.resetPassword('erin', 'erin-new-password');
      await refuses(tokens.refresh_token!);
      await expect(oidc.fetchUserInfo(rp, tokens.access_token, 'erin')).rejects.toBeDefined();
      // The browser's session at the provider: the login page again, not a code.
      const again = await authorization(OFFLINE);
      const page = await browser.open(again.url.href);
      expect(typeof page).not.toBe('string');
      expect((page as BrowserPage).html).toContain('<label for="password">Password</label>');
      // Logged in again with the new password: tokens that refresh.
      const fresh = await offlineLogin('erin', 'erin-new-password');
      expect(
        (await oidc.refreshTokenGrant(rp, fresh.tokens.refresh_token!)).claims(),
      ).toMatchObject({
        sub: 'erin',
      });
    });

    it('ends with revocation (RFC 7009) and for a user disabled since', async () => {
      const revoked = await offlineLogin('alice', 'alice-password');
      await oidc.tokenRevocation(rp, revoked.tokens.refresh_token!);
      await refuses(revoked.tokens.refresh_token!);

      await a.domain.userAdmin.add({ id: 'carol', password: 'carol-password', name: 'Carol' });
      const carol = await offlineLogin('carol', 'carol-password');
      await a.domain.userAdmin.setEnabled('carol', false);
      await refuses(carol.tokens.refresh_token!);
    });

    it('the account lists the site holding the grant, also after Redis lost its list; revoke-site ends the refresh token (docs/api.md §12)', async () => {
      await a.domain.userAdmin.add({ id: 'gina', password: 'gina-password', name: 'Gina' });
      const { tokens } = await offlineLogin('gina', 'gina-password');
      const login = await postJson(`${a.url}/v2/auth/auth-user`, {
        id: 'gina',
        password: 'gina-password',
      });
      const bearer = { authorization: `Bearer ${(login.body as { token: string }).token}` };
      const sites = async () => {
        const res = await fetch(`${a.url}/v2/auth/account`, { headers: bearer });
        expect(res.status).toBe(200);
        return ((await res.json()) as { sites: Array<{ clientId: string }> }).sites;
      };
      expect(await sites()).toEqual([expect.objectContaining({ clientId: SITE.id })]);
      // Redis loses everything: the grant is kept in SQL (it holds a refresh token), so the
      // site is still listed and can still be ended.
      expect(await loseRedisData(a.config.REDIS_KEY_PREFIX!)).toBeGreaterThan(0);
      expect(await sites()).toEqual([expect.objectContaining({ clientId: SITE.id })]);
      const revoked = await postJson(`${a.url}/v2/auth/revoke-site`, { clientId: SITE.id }, bearer);
      expect(revoked.status).toBe(200);
      await refuses(tokens.refresh_token!);
      expect(await sites()).toEqual([]);
    });

    it('a browser with a session gets one through prompt=consent without the login page (implicit consent)', async () => {
      const { browser } = await offlineLogin('alice', 'alice-password');
      const again = await authorization(OFFLINE);
      const callback = await browser.open(again.url.href);
      expect(typeof callback).toBe('string');
      const tokens = await redeem(callback as string, again);
      expect(tokens.refresh_token).toEqual(expect.any(String));
      expect((await oidc.refreshTokenGrant(rp, tokens.refresh_token!)).id_token).toEqual(
        expect.any(String),
      );
    });
  });

  /**
   * Redis may go back in time (docs/api.md §9): restored from a snapshot taken before a use (a
   * failover to a replica that lagged, a backup), or restarted empty. Codes and refresh tokens
   * are used once whatever Redis says; the current refresh token keeps working. On the suite's
   * PostgreSQL and on a SQLite database as in development.
   */
  describe.each([['PostgreSQL'], ['SQLite']])('when Redis goes back in time (%s)', (database) => {
    let site: oidc.Configuration;
    let prefix: string;
    let own: { service: RunningAuthService; dir: string } | undefined;
    const OFFLINE = { scope: 'openid profile offline_access', prompt: 'consent' };

    beforeAll(async () => {
      if (database === 'PostgreSQL') {
        site = rp;
        prefix = a.config.REDIS_KEY_PREFIX!;
        return;
      }
      const dir = mkdtempSync(join(tmpdir(), 'itp-auth-oidc-'));
      const port = await freePort();
      const service = await startAuthService({
        DATABASE_URL: `sqlite:${join(dir, 'auth.sqlite')}`,
        JWT_SIGNING_KEYS: await newSigningKeysSecret(),
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        PORT: String(port),
      });
      own = { service, dir };
      prefix = service.config.REDIS_KEY_PREFIX!;
      await service.domain.userAdmin.add({ id: 'alice', password: 'alice-password', name: 'A' });
      await service.domain.clientAdmin.add({
        id: SITE.id,
        secret: SITE.secret,
        requestIdPrefixes: ['https://shop.example/'],
        redirectUris: [SITE.redirectUri],
      });
      site = await oidc.discovery(
        new URL(`${service.url}/v2/auth/oidc`),
        SITE.id,
        SITE.secret,
        undefined,
        { execute: [oidc.allowInsecureRequests] },
      );
    });

    afterAll(async () => {
      await own?.service.close();
      if (own) rmSync(own.dir, { recursive: true, force: true });
    });

    const login = async (extra: Record<string, string> = {}) => {
      const { request, after } = await passwordLogin('alice', 'alice-password', extra, site);
      expect(typeof after).toBe('string');
      return { request, callback: after as string };
    };
    const refused = async (refreshToken: string) => {
      const err = await oidc.refreshTokenGrant(site, refreshToken).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toMatchObject({ error: 'invalid_grant' });
    };

    it('a code redeemed once is refused again (invalid_grant) after Redis went back to before the redemption', async () => {
      const { request, callback } = await login();
      const beforeRedemption = await snapshotRedisKeys(prefix);
      const tokens = await redeem(callback, request, site);
      expect(tokens.claims()).toMatchObject({ sub: 'alice', amr: ['pwd'] });
      await beforeRedemption();
      // Redis shows the code unconsumed again, under its SHA-256.
      const code = new URL(callback).searchParams.get('code')!;
      const record = JSON.parse(
        (await (own?.service ?? a).domain.kv.get(`oidc:AuthorizationCode:${sha256Hex(code)}`))!,
      ) as Record<string, unknown>;
      expect(record.consumed).toBeUndefined();
      await expect(redeem(callback, request, site)).rejects.toMatchObject({
        error: 'invalid_grant',
      });
    });

    it('a rotated refresh token stays refused after Redis went back; the current one keeps working', async () => {
      const { request, callback } = await login(OFFLINE);
      const first = (await redeem(callback, request, site)).refresh_token!;
      const beforeRefresh = await snapshotRedisKeys(prefix);
      const current = (await oidc.refreshTokenGrant(site, first)).refresh_token!;
      await beforeRefresh();
      // Whoever kept the rotated token does not take the session over…
      await refused(first);
      // …and the legitimate holder is not logged out: its token (no longer in Redis) works.
      const next = await oidc.refreshTokenGrant(site, current);
      expect(next.claims()).toMatchObject({ sub: 'alice' });
      await refused(current);
      expect((await oidc.refreshTokenGrant(site, next.refresh_token!)).access_token).toEqual(
        expect.any(String),
      );
    });

    it('a revoked refresh token stays revoked after Redis went back to before the revocation', async () => {
      const { request, callback } = await login(OFFLINE);
      const token = (await redeem(callback, request, site)).refresh_token!;
      const beforeRevocation = await snapshotRedisKeys(prefix);
      await oidc.tokenRevocation(site, token);
      await beforeRevocation();
      await refused(token);
    });

    it('the current refresh token survives a Redis that restarted empty; a rotated one does not come back', async () => {
      const { request, callback } = await login(OFFLINE);
      const first = (await redeem(callback, request, site)).refresh_token!;
      const current = (await oidc.refreshTokenGrant(site, first)).refresh_token!;
      expect(await loseRedisData(prefix)).toBeGreaterThan(0);
      await refused(first);
      const next = await oidc.refreshTokenGrant(site, current);
      expect(next.claims()).toMatchObject({ sub: 'alice' });
    });
  });

  it('logs in with the password form: code → tokens, id_token checked against the JWKS, userinfo', async () => {
    const { request, page, after } = await passwordLogin('alice', 'alice-password');
    expect(page.html).toContain('<label for="id">User id</label>');
    expect(page.html).toContain('<label for="password">Password</label>');
    expect(page.html).toContain('<button type="submit">Log in</button>');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    // Not no-referrer: a browser would send the form's POST with Origin: null (refused, 403).
    expect(page.headers.get('referrer-policy')).toBe('same-origin');
    expect(typeof after).toBe('string');
    const tokens = await redeem(after as string, request);
    const { payload } = await jwtVerify(
      tokens.id_token!,
      createRemoteJWKSet(new URL(rp.serverMetadata().jwks_uri!)),
      { issuer, audience: SITE.id, algorithms: ['ES256'] },
    );
    expect(payload).toMatchObject({
      sub: 'alice',
      nonce: request.nonce,
      amr: ['pwd'],
      name: 'Alice',
      email: 'alice@example.com',
      phone_number: '+15550100',
    });
    expect(payload.auth_time).toEqual(expect.any(Number));
    const userinfo = await oidc.fetchUserInfo(rp, tokens.access_token, 'alice');
    expect(userinfo).toMatchObject({
      sub: 'alice',
      name: 'Alice',
      email: 'alice@example.com',
      phone_number: '+15550100',
    });
  });

  it('refuses a replayed code (invalid_grant), also when two redemptions race', async () => {
    const { request, after } = await passwordLogin('alice', 'alice-password');
    const results = await Promise.allSettled([
      redeem(after as string, request),
      redeem(after as string, request),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect((refused.reason as { error?: string }).error).toBe('invalid_grant');
    await expect(redeem(after as string, request)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });

  it('refuses a wrong code_verifier (invalid_grant)', async () => {
    const { request, after } = await passwordLogin('alice', 'alice-password');
    await expect(
      redeem(after as string, { ...request, verifier: oidc.randomPKCECodeVerifier() }),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('refuses an authorization request without a PKCE challenge (back to the site, no code)', async () => {
    const url = new URL(`${rp.serverMetadata().authorization_endpoint}`);
    url.search = new URLSearchParams({
      client_id: SITE.id,
      redirect_uri: SITE.redirectUri,
      response_type: 'code',
      scope: 'openid',
      state: 'st',
    }).toString();
    const reached = await new OidcTestBrowser(SITE.redirectUri).open(url.href);
    expect(typeof reached).toBe('string');
    const params = new URL(reached as string).searchParams;
    expect(params.get('error')).toBe('invalid_request');
    expect(params.get('error_description')).toMatch(/PKCE/);
    expect(params.get('code')).toBeNull();
  });

  it('shows an unregistered redirect_uri as an error page and never redirects to it', async () => {
    const { url } = await authorization({ redirect_uri: 'https://evil.example/callback' });
    const res = await fetch(url, { redirect: 'manual', headers: { accept: 'text/html' } });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    const html = await res.text();
    expect(html).toContain('invalid_redirect_uri');
    expect(html).not.toContain('evil.example');
  });

  it('refuses a wrong client secret at the token endpoint (401 invalid_client, with a challenge)', async () => {
    const { request, after } = await passwordLogin('alice', 'alice-password');
    // openid-client's default with a secret: client_secret_post.
    const wrong = await oidc.discovery(new URL(issuer), SITE.id, 'not-the-secret', undefined, {
      execute: [oidc.allowInsecureRequests],
    });
    await expect(
      oidc.authorizationCodeGrant(wrong, new URL(after as string), {
        pkceCodeVerifier: request.verifier,
        expectedNonce: request.nonce,
        expectedState: request.state,
      }),
    ).rejects.toMatchObject({
      status: 401,
      cause: [{ scheme: 'basic', parameters: { realm: issuer, error: 'invalid_client' } }],
    });
  });

  it('answers a token request without client authentication 401 invalid_client with a WWW-Authenticate challenge (RFC 6749 §5.2)', async () => {
    const { request, after } = await passwordLogin('alice', 'alice-password');
    const code = new URL(after as string).searchParams.get('code')!;
    const grant = {
      grant_type: 'authorization_code',
      code,
      redirect_uri: SITE.redirectUri,
      code_verifier: request.verifier,
    };
    // No client at all: no Authorization header, no client_id, no client_secret.
    const anonymous = await fetch(`${issuer}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(grant).toString(),
    });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({
      error: 'invalid_client',
      error_description: expect.any(String),
    });
    expect(anonymous.headers.get('www-authenticate')).toBe(
      `Basic realm="${issuer}", error="invalid_client"`,
    );
    // A client_id alone (openid-client's None()): 401 with a challenge the library reads.
    const unauthenticated = await oidc.discovery(new URL(issuer), SITE.id, undefined, oidc.None(), {
      execute: [oidc.allowInsecureRequests],
    });
    const err = await oidc
      .authorizationCodeGrant(unauthenticated, new URL(after as string), {
        pkceCodeVerifier: request.verifier,
        expectedNonce: request.nonce,
        expectedState: request.state,
      })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(oidc.WWWAuthenticateChallengeError);
    const challenge = err as oidc.WWWAuthenticateChallengeError;
    expect(challenge.status).toBe(401);
    expect(challenge.cause[0]).toMatchObject({
      scheme: 'basic',
      parameters: { realm: issuer, error: 'invalid_client' },
    });
    // The code is still good for the site that authenticates.
    expect((await redeem(after as string, request)).access_token).toEqual(expect.any(String));
  });

  it('takes the Bearer scheme of userinfo in any case (RFC 9110 §11.1)', async () => {
    const { request, after } = await passwordLogin('alice', 'alice-password');
    const tokens = await redeem(after as string, request);
    for (const scheme of ['bearer', 'BEARER']) {
      const res = await fetch(rp.serverMetadata().userinfo_endpoint!, {
        headers: { authorization: `${scheme} ${tokens.access_token}` },
      });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { sub: string }).sub).toBe('alice');
    }
  });

  it('accepts client_secret_post as well', async () => {
    const { request, after } = await passwordLogin('alice', 'alice-password');
    const post = await oidc.discovery(
      new URL(issuer),
      SITE.id,
      {},
      oidc.ClientSecretPost(SITE.secret),
      { execute: [oidc.allowInsecureRequests] },
    );
    const tokens = await oidc.authorizationCodeGrant(post, new URL(after as string), {
      pkceCodeVerifier: request.verifier,
      expectedNonce: request.nonce,
      expectedState: request.state,
    });
    expect(tokens.claims()?.sub).toBe('alice');
  });

  it('issues no code for a disabled user or a wrong password (the page says why, 401)', async () => {
    for (const [id, password] of [
      ['bob', 'bob-password'],
      ['alice', 'wrong-password'],
    ] as const) {
      const { after } = await passwordLogin(id, password);
      expect(typeof after).not.toBe('string');
      const page = after as BrowserPage;
      expect(page.status).toBe(401);
      expect(page.html).toContain('Invalid id or password');
      expect(page.headers.get('location')).toBeNull();
    }
  });

  it('refuses a form post from another origin (403)', async () => {
    const request = await authorization();
    const browser = new OidcTestBrowser(SITE.redirectUri);
    const page = await loginPage(browser, request.url);
    const action = /<form method="post" action="([^"]+)"/.exec(page.html)![1]!;
    const after = await browser.submit(
      page,
      action,
      { id: 'alice', password: 'alice-password' },
      'https://evil.example',
    );
    expect((after as BrowserPage).status).toBe(403);
  });

  it('shows an expired interaction as such, and its form logs nobody in', async () => {
    const request = await authorization();
    const browser = new OidcTestBrowser(SITE.redirectUri);
    const page = await loginPage(browser, request.url);
    const uid = /interaction\/([\w-]+)/.exec(page.url)![1]!;
    // Its lifetime (OIDC_INTERACTION_TTL_SECONDS) ran out: the record's `exp` is a minute in the
    // past, beyond the provider's 5 s clock tolerance (it checks `exp` on every read, before Redis
    // drops the key).
    const key = `oidc:Interaction:${uid}`;
    const record = JSON.parse((await a.domain.kv.get(key))!) as { exp: number };
    expect(record.exp).toBeGreaterThan(Date.now() / 1000);
    await a.domain.kv.set(
      key,
      JSON.stringify({ ...record, exp: Math.floor(Date.now() / 1000) - 60 }),
    );
    const again = (await browser.open(page.url)) as BrowserPage;
    expect(again.status).toBe(400);
    expect(again.html).toContain('This login page has expired');
    expect(again.html).toContain('The login took too long');
    // A way back: to the site, or the same authorization request again (a new login page).
    expect(attributeOf(again.html, 'back-to-site', 'href')).toBe('https://shop.example/');
    const startAgain = attributeOf(again.html, 'start-again', 'href')!;
    expect(startAgain).toMatch(/^\/v2\/auth\/oidc\/auth\?/);
    const fresh = await loginPage(browser, new URL(startAgain, page.url));
    expect(fresh.url).not.toBe(page.url);
    expect(fresh.html).toContain('<form method="post" action="/v2/auth/oidc/interaction/');
    // Its state is the site's: the site's callback takes the new login's code.
    const action = /<form method="post" action="([^"]+)"/.exec(fresh.html)![1]!;
    const done = await browser.submit(fresh, action, { id: 'alice', password: 'alice-password' });
    expect(typeof done).toBe('string');
    expect((await redeem(done as string, request)).claims()?.sub).toBe('alice');
    // The form of the expired page's interaction still logs nobody in.
    const after = await browser.submit(page, `${uid}/login`, {
      id: 'alice',
      password: 'alice-password',
    });
    expect(typeof after).not.toBe('string');
    expect((after as BrowserPage).status).toBe(400);
  });

  it('cancel on the login page: the site gets access_denied with its state (openid-client); not from another origin', async () => {
    const request = await authorization();
    const browser = new OidcTestBrowser(SITE.redirectUri);
    const page = await loginPage(browser, request.url);
    const cancel = attributeOf(page.html, 'cancel-form', 'action')!;
    expect(cancel).toMatch(/^\/v2\/auth\/oidc\/interaction\/[\w-]+\/abort$/);
    const foreign = await browser.submit(page, cancel, {}, 'https://evil.example');
    expect((foreign as BrowserPage).status).toBe(403);
    const back = await browser.submit(page, cancel, {});
    expect(typeof back).toBe('string');
    const callback = new URL(back as string);
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(callback.searchParams.get('state')).toBe(request.state);
    await expect(redeem(back as string, request)).rejects.toMatchObject({
      error: 'access_denied',
      error_description: 'The user cancelled the login',
    });
    // The interaction is over: cancelling again is the expired page.
    const again = (await browser.submit(page, cancel, {})) as BrowserPage;
    expect(again.status).toBe(400);
    expect(again.html).toContain('This login page has expired');
  });

  it("shows the site's name, escaped; a site without a name as 'the site', never its client id", async () => {
    const unnamed = await loginPage(
      new OidcTestBrowser(SITE.redirectUri),
      (await authorization()).url,
    );
    expect(unnamed.html).toContain('<h1>Log in to continue to the site</h1>');
    expect(unnamed.html).toContain('Cancel and return to the site');
    expect(unnamed.html).not.toMatch(/>[^<]*\bshop\b[^<]*</);
    const named = { id: 'named-shop', secret: 'named-shop-secret-123456' };
    await a.domain.clientAdmin.add({
      ...named,
      name: 'Shop <b>&</b> Co',
      requestIdPrefixes: ['https://shop.example/'],
      redirectUris: [SITE.redirectUri],
    });
    const namedRp = await oidc.discovery(new URL(issuer), named.id, named.secret, undefined, {
      execute: [oidc.allowInsecureRequests],
    });
    const page = await loginPage(
      new OidcTestBrowser(SITE.redirectUri),
      (await authorization({}, namedRp)).url,
    );
    expect(page.html).toContain('<h1>Log in to Shop &lt;b&gt;&amp;&lt;/b&gt; Co</h1>');
    expect(page.html).toContain('Cancel and return to Shop &lt;b&gt;&amp;&lt;/b&gt; Co');
    expect(page.html).not.toContain('<b>');
  });

  it("shows the operator's branding (LOGIN_PAGE_*) escaped; the CSP allows the logo's origin only when one is set", async () => {
    const plain = await loginPage(
      new OidcTestBrowser(SITE.redirectUri),
      (await authorization()).url,
    );
    expect(plain.headers.get('content-security-policy')).toContain("img-src 'self' data:;");
    expect(plain.html).not.toContain('class="brand"');
    expect(plain.html).not.toMatch(/(src|href)="https?:/);
    const branded = await startAuthService({
      ...shared,
      LOGIN_PAGE_PRODUCT_NAME: 'Acme <ID> & "Co"',
      LOGIN_PAGE_LOGO_URL: 'https://cdn.acme.example/brand/logo.svg?v=1&x="y"',
      LOGIN_PAGE_PRIMARY_COLOR: '#0a7',
    });
    try {
      const url = new URL((await authorization()).url);
      const page = await loginPage(
        new OidcTestBrowser(SITE.redirectUri),
        new URL(`${url.pathname}${url.search}`, branded.url),
      );
      expect(page.html).toContain(
        '<span class="product" id="brand-name">Acme &lt;ID&gt; &amp; &quot;Co&quot;</span>',
      );
      expect(page.html).toContain('<title>Log in · Acme &lt;ID&gt; &amp; &quot;Co&quot;</title>');
      expect(attributeOf(page.html, 'brand-logo', 'src')).toBe(
        'https://cdn.acme.example/brand/logo.svg?v=1&x="y"',
      );
      expect(page.html).toContain(
        'src="https://cdn.acme.example/brand/logo.svg?v=1&amp;x=&quot;y&quot;"',
      );
      const csp = page.headers.get('content-security-policy')!;
      expect(csp).toContain("img-src 'self' data: https://cdn.acme.example;");
      expect(csp).toContain("default-src 'none'");
      const css = await (await fetch(`${branded.url}/v2/auth/oidc/assets/oidc.css`)).text();
      expect(css).toContain('background: #0a7');
    } finally {
      await branded.close();
    }
    const refused = (env: Record<string, string>) => {
      try {
        loadConfig(authServiceConfigSchema, { APP_ENV: 'test', ...env });
      } catch (err) {
        return (err as Error).message;
      }
      return '';
    };
    expect(refused({ LOGIN_PAGE_PRIMARY_COLOR: 'red;}' })).toMatch(
      /LOGIN_PAGE_PRIMARY_COLOR: must be a CSS hex colour/,
    );
    for (const logo of [
      'http://cdn.acme.example/logo.svg',
      '//cdn.acme.example/logo.svg',
      'javascript:x',
    ]) {
      expect(refused({ LOGIN_PAGE_LOGO_URL: logo })).toMatch(
        /LOGIN_PAGE_LOGO_URL: must be an https URL or an absolute path/,
      );
    }
  });

  it('logs in with Sign-In with Ethereum on the login page (amr siwe); refusals answer the page as JSON', async () => {
    // Alice links a key's address (a SIWE message it signed, with her JWT).
    const account = privateKeyToAccount(generatePrivateKey());
    const login = await postJson(`${a.url}/v2/auth/auth-user`, {
      id: 'alice',
      password: 'alice-password',
    });
    const issued = (await postJson(`${a.url}/v2/auth/siwe/nonce`, {})).body as {
      nonce: string;
      domain: string;
      uri: string;
      chainId: number;
    };
    const linkMessage = createSiweMessage({ ...issued, address: account.address, version: '1' });
    const linked = await postJson(
      `${a.url}/v2/auth/link-address`,
      { message: linkMessage, signature: await account.signMessage({ message: linkMessage }) },
      { authorization: `Bearer ${(login.body as { token: string }).token}` },
    );
    expect(linked.status).toBe(200);

    const request = await authorization();
    const browser = new OidcTestBrowser(SITE.redirectUri);
    const page = await loginPage(browser, request.url);
    expect(page.html).toContain('Sign in with Ethereum');
    const messageUrl = new URL(attributeOf(page.html, 'siwe', 'data-message-url')!, page.url).href;
    const loginUrl = new URL(attributeOf(page.html, 'siwe', 'data-login-url')!, page.url).href;
    const origin = new URL(page.url).origin;
    const postStep = async (url: string, body: unknown, from = origin) => {
      const answer = await browser.open(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: from },
        body: JSON.stringify(body),
      });
      if (typeof answer === 'string') throw new Error(`unexpected redirect to ${answer}`);
      return { status: answer.status, body: JSON.parse(answer.html) as Record<string, string> };
    };

    // The service builds the message for the wallet's account (here given in lower case).
    const built = await postStep(messageUrl, { address: account.address.toLowerCase() });
    expect(built.status).toBe(200);
    const message = built.body.message!;
    expect(message).toContain(`${new URL(page.url).host} wants you to sign in`);
    expect(message).toContain(`\n${account.address}\n`);
    expect(message).toContain('Log in to shop');

    // Refused: another key's signature (401, the reason as JSON), a post from another origin.
    const wrong = await postStep(loginUrl, {
      message,
      signature: await privateKeyToAccount(generatePrivateKey()).signMessage({ message }),
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toMatch(/signature is not/);
    const signature = await account.signMessage({ message });
    const foreign = await browser.open(loginUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
      body: JSON.stringify({ message, signature }),
    });
    expect((foreign as BrowserPage).status).toBe(403);
    expect((await postStep(messageUrl, { address: 'not-an-address' })).status).toBe(400);

    // The right signature: the browser continues to the site with a code; amr says siwe.
    const done = await postStep(loginUrl, { message, signature });
    expect(done.status).toBe(200);
    const callback = await browser.open(done.body.redirectTo!);
    expect(typeof callback).toBe('string');
    const tokens = await redeem(callback as string, request);
    expect(tokens.claims()).toMatchObject({ sub: 'alice', amr: ['siwe'] });
    // The same signed message again: its nonce is used up.
    const replay = await postStep(loginUrl, { message, signature });
    expect(replay.status).toBe(400); // the interaction is finished: the page has expired
  });

  it('limits new login pages with QR codes per client address: over it the page has none and says so; password still logs in', async () => {
    // An instance of its own (issuer, Redis prefix) with a limit of 2 pages a minute.
    const port = await freePort();
    const c = await startAuthService({
      DATABASE_URL: db.url,
      JWT_SIGNING_KEYS: await newSigningKeysSecret(),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      PORT: String(port),
      OIDC_QR_PAGES_PER_IP_PER_MINUTE: '2',
    });
    try {
      const rpC = await oidc.discovery(
        new URL(`${c.url}/v2/auth/oidc`),
        SITE.id,
        SITE.secret,
        undefined,
        { execute: [oidc.allowInsecureRequests] },
      );
      const open = async () => {
        const { url } = await authorization({}, rpC);
        const browser = new OidcTestBrowser(SITE.redirectUri);
        return { browser, page: await loginPage(browser, url) };
      };
      const first = await open();
      const second = await open();
      const third = await open();
      // The pages themselves make no QR codes: the script asks for them when they are picked.
      for (const { page } of [first, second, third]) {
        expect(page.html).not.toContain('id="app-qr"');
        expect(page.html).toContain('id="qr-logins"');
      }
      // Only the first ask of each page counts (a page nobody runs the script of opens nothing).
      const asked = [];
      for (const { browser, page } of [first, second]) {
        const made = await qrLoginsOf(browser, page);
        expect(made.status).toBe(200);
        expect(made.qr?.requestIdQr).toMatch(/^data:image\/png;base64,/);
        expect(made.notice).toBeUndefined();
        asked.push(made);
      }
      const refused = await qrLoginsOf(third.browser, third.page);
      expect(refused.status).toBe(200);
      expect(refused.qr).toBeUndefined();
      expect(refused.notice).toMatch(
        /^Too many login pages from your network: the QR codes are back in \d+ seconds/,
      );
      // A reload of a page that has its QR codes shows the same ones (not counted again).
      const reloaded = (await first.browser.open(first.page.url)) as BrowserPage;
      expect((await qrLoginsOf(first.browser, reloaded)).qr?.requestId).toBe(
        asked[0]!.qr?.requestId,
      );
      // The page without QR codes still logs in with the password.
      const action = /<form method="post" action="([^"]+)"/.exec(third.page.html)![1]!;
      const after = await third.browser.submit(third.page, action, {
        id: 'alice',
        password: 'alice-password',
      });
      expect(typeof after).toBe('string');
      expect(new URL(after as string).searchParams.get('code')).toEqual(expect.any(String));
    } finally {
      await c.close();
    }
  });

  it('bounds what an anonymous caller can make the provider store: 60 authorization requests a minute per address, parameters of at most 512 characters', async () => {
    // An instance of its own (issuer, Redis prefix) with the default limit (60 a minute).
    const port = await freePort();
    const prefix = uniquePrefix('auth-oidc-bounds');
    const c = await startAuthService({
      DATABASE_URL: db.url,
      REDIS_KEY_PREFIX: prefix,
      JWT_SIGNING_KEYS: await newSigningKeysSecret(),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      PORT: String(port),
    });
    const redis = new Redis(testRedisUrl());
    try {
      expect(c.config.OIDC_AUTHORIZATIONS_PER_IP_PER_MINUTE).toBe(60);
      const rpC = await oidc.discovery(
        new URL(`${c.url}/v2/auth/oidc`),
        SITE.id,
        SITE.secret,
        undefined,
        { execute: [oidc.allowInsecureRequests] },
      );
      const keyCount = async () => (await redis.keys(`${prefix}*`)).length;
      const authorize = async (from: string, extra: Record<string, string> = {}) => {
        const { url } = await authorization(extra, rpC);
        const res = await fetch(url, {
          redirect: 'manual',
          headers: { accept: 'text/html', 'x-forwarded-for': from },
        });
        return { res, html: await res.text() };
      };
      const toLoginPage = (res: Response) => {
        expect(res.status).toBe(303);
        expect(res.headers.get('location')).toMatch(/\/v2\/auth\/oidc\/interaction\/[\w-]+$/);
      };

      // A 7,000-character state: 400 invalid_request on a page, no redirect, nothing stored
      // (no Interaction, not even a counter); the same for every other free-text parameter.
      const before = await keyCount();
      const long = await authorize('198.51.100.20', { state: 's'.repeat(7_000) });
      expect(long.res.status).toBe(400);
      expect(long.res.headers.get('location')).toBeNull();
      expect(long.html).toContain('invalid_request');
      expect(long.html).toContain('the state parameter is longer than 512 characters');
      for (const name of ['nonce', 'login_hint', 'ui_locales', 'acr_values', 'max_age', 'claims']) {
        const refused = await authorize('198.51.100.20', { [name]: 'x'.repeat(513) });
        expect([name, refused.res.status]).toEqual([name, 400]);
      }
      expect(await keyCount()).toBe(before);
      // 512 characters are fine: the login page.
      toLoginPage((await authorize('198.51.100.21', { state: 's'.repeat(512) })).res);
      toLoginPage((await authorize('198.51.100.21', { nonce: 'n'.repeat(512) })).res);

      // 60 authorization requests from one address each get a login page (an Interaction)…
      for (let i = 0; i < 60; i += 1) toLoginPage((await authorize('203.0.113.50')).res);
      // …the 61st is refused before the provider: 429 with Retry-After, no new key in Redis.
      const full = await keyCount();
      const refused = await authorize('203.0.113.50');
      expect(refused.res.status).toBe(429);
      expect(Number(refused.res.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(refused.res.headers.get('location')).toBeNull();
      expect(refused.html).toMatch(/Too many login requests from your network: try again in \d+/);
      expect(await keyCount()).toBe(full);
      // Another address still gets its login page.
      const elsewhere = await authorize('203.0.113.51');
      toLoginPage(elsewhere.res);
    } finally {
      redis.disconnect();
      await c.close();
    }
  });

  it('posts a logout token to a site that registered a back-channel logout URI when the user logs out at the provider', async () => {
    // The site's back-channel endpoint: keeps what it receives; answers 503 when told to.
    const received: string[] = [];
    let answer = 200;
    const site = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received.push(new URLSearchParams(body).get('logout_token') ?? `no token: ${body}`);
        res.writeHead(answer).end();
      });
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const backchannel = `http://127.0.0.1:${(site.address() as AddressInfo).port}/oidc/logout`;
    try {
      await a.domain.clientAdmin.add({
        id: 'bc-site',
        secret: 'bc-site-secret-123',
        requestIdPrefixes: ['https://bc.example/'],
        redirectUris: [SITE.redirectUri],
        backchannelLogoutUri: backchannel,
      });
      const rpBc = await oidc.discovery(
        new URL(issuer),
        'bc-site',
        'bc-site-secret-123',
        undefined,
        {
          execute: [oidc.allowInsecureRequests],
        },
      );
      expect(rpBc.serverMetadata()).toMatchObject({
        backchannel_logout_supported: true,
        backchannel_logout_session_supported: true,
      });
      /** A password login at bc-site, then the user logs out at the provider: the logged-out page. */
      const loginThenLogout = async () => {
        const { request, browser, after } = await passwordLogin(
          'alice',
          'alice-password',
          {},
          rpBc,
        );
        const tokens = await redeem(after as string, request, rpBc);
        return { tokens, done: await logOutAtProvider(browser, tokens.id_token!, rpBc) };
      };

      const { tokens, done } = await loginThenLogout();
      expect(done.status).toBe(200);
      expect(done.html).toContain('You are logged out');
      // One logout token, checked as a site checks it (Back-Channel Logout 1.0 §2.4, §2.6).
      expect(received).toHaveLength(1);
      const sid = tokens.claims()!.sid;
      expect(sid).toEqual(expect.any(String));
      const { payload, protectedHeader } = await jwtVerify(
        received[0]!,
        createRemoteJWKSet(new URL(rp.serverMetadata().jwks_uri!)),
        { issuer, audience: 'bc-site', algorithms: ['ES256'], typ: 'logout+jwt' },
      );
      expect(protectedHeader.alg).toBe('ES256');
      expect(payload).toMatchObject({
        sub: 'alice',
        sid,
        events: { 'http://schemas.openid.net/event/backchannel-logout': {} },
      });
      expect(payload.jti).toEqual(expect.any(String));
      expect(payload.iat).toEqual(expect.any(Number));
      expect(payload.nonce).toBeUndefined();

      // A site whose endpoint fails does not keep the user from logging out.
      answer = 503;
      const failed = await loginThenLogout();
      expect(received).toHaveLength(2);
      expect(failed.done.status).toBe(200);
      expect(failed.done.html).toContain('You are logged out');
    } finally {
      await new Promise((resolve) => site.close(resolve));
    }
  });

  it('logs in through the phone-app QR (amr app); authorization on one instance, token on the other', async () => {
    const request = await authorization();
    const browser = new OidcTestBrowser(SITE.redirectUri);
    const page = await loginPage(browser, request.url);
    // Another origin's script cannot open the page's QR logins (the origin check).
    expect((await qrLoginsOf(browser, page, 'https://evil.example')).status).toBe(403);
    const { qr } = await qrLoginsOf(browser, page);
    const requestId = qr?.requestId;
    expect(requestId).toMatch(/^https:\/\/shop\.example\/requestId=\d{52}$/);
    expect(qr?.requestIdQr).toMatch(/^data:image\/png;base64,/);
    const statusUrl = new URL(attributeOf(page.html, 'qr-status', 'data-status-url')!, page.url)
      .href;
    expect((await browser.json(statusUrl)).body).toEqual({ status: 'pending' });
    await a.domain.loginRequests.approveLoginRequest(requestId!, 'alice');
    const done = await browser.json(statusUrl);
    expect(done.body).toMatchObject({ status: 'done', redirectTo: expect.any(String) });
    const callback = await browser.open(new URL(done.body.redirectTo as string, page.url).href);
    expect(typeof callback).toBe('string');
    const code = new URL(callback as string).searchParams.get('code')!;
    // The token request goes to the other instance (same Redis and database).
    const res = await fetch(`${b.url}/v2/auth/oidc/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${SITE.id}:${SITE.secret}`).toString('base64')}`,
      },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: SITE.redirectUri,
        code_verifier: request.verifier,
      }).toString(),
    });
    expect(res.status).toBe(200);
    const tokens = (await res.json()) as { id_token: string };
    expect(decodeJwt(tokens.id_token)).toMatchObject({
      iss: issuer,
      aud: SITE.id,
      sub: 'alice',
      nonce: request.nonce,
      amr: ['app'],
    });
  });

  // Last: what the tests above did, as the provider's Prometheus counters on instance a.
  it('counts token requests, authorizations by method, logouts, revocations and back-channel posts on the metrics port', async () => {
    const text = await (await fetch(`${a.metricsUrl}/metrics`)).text();
    const value = (series: string): number => {
      const line = text.split('\n').find((l) => l.startsWith(`${series} `));
      return line ? Number(line.slice(series.length + 1)) : 0;
    };
    const s = 'service="auth-service"';
    expect(
      value(`oidc_token_requests_total{grant_type="authorization_code",outcome="success",${s}}`),
    ).toBeGreaterThan(5);
    expect(
      value(
        `oidc_token_requests_total{grant_type="authorization_code",outcome="invalid_grant",${s}}`,
      ),
    ).toBeGreaterThan(0);
    expect(
      value(`oidc_token_requests_total{grant_type="refresh_token",outcome="success",${s}}`),
    ).toBeGreaterThan(2);
    expect(
      value(`oidc_token_requests_total{grant_type="refresh_token",outcome="invalid_grant",${s}}`),
    ).toBeGreaterThan(2);
    expect(value(`oidc_authorizations_total{outcome="success",method="pwd",${s}}`)).toBeGreaterThan(
      5,
    );
    expect(
      value(`oidc_authorizations_total{outcome="success",method="siwe",${s}}`),
    ).toBeGreaterThan(0);
    expect(
      value(`oidc_authorizations_total{outcome="success",method="session",${s}}`),
    ).toBeGreaterThan(0);
    expect(value(`oidc_logouts_total{${s}}`)).toBeGreaterThanOrEqual(3);
    expect(value(`oidc_grants_revoked_total{${s}}`)).toBeGreaterThan(0);
    expect(value(`oidc_backchannel_logouts_total{outcome="delivered",${s}}`)).toBe(1);
    expect(value(`oidc_backchannel_logouts_total{outcome="failed",${s}}`)).toBe(1);
    // Nothing a client sends becomes a label of its own.
    expect(text).not.toMatch(/grant_type="(?!authorization_code|refresh_token|other)/);
  });
});
