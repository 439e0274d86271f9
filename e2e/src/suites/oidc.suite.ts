/**
 * The OpenID Connect provider (`<gateway>/v2/auth/oidc`) through the gateway, as a third-party
 * site uses it: openid-client (panva) is the relying party (discovery, PKCE S256, nonce, state,
 * the code grant, userinfo; the id_token checked with jose against the provider's JWKS) and a real
 * browser (Debian's chromium, playwright-core) the user's. The three ways of the login page, each
 * ending at the site's callback with its `amr`: the password form (`pwd`), the phone app's QR
 * approved with a VP (`app`), a third-party OpenID4VP wallet answering the wallet QR (`vp`), and
 * the browser's Ethereum wallet (`siwe`: a test EIP-1193 provider injected into the page, its key
 * signing with viem in the test). The password form, the phone app's QR and Sign-In with
 * Ethereum work as well from the page a wrong password came back on (the form post's answer,
 * served at `…/interaction/<uid>/login`).
 *
 * The relying party is registered the way an operator registers one (auth-service's CLI,
 * `clients add --redirect-uri`); its callback is a local HTTP server of the test that answers
 * 200, so the browser really lands there (the test reads the code from the request).
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import type { Browser, Page, Response } from 'playwright-core';
import { hexToString, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { createSiweMessage } from 'viem/siwe';
import { runAuthCli } from '@itp/harness';
import { collectPageErrors, launchChromium } from '@itp/testing/chromium';
import { decodeQr } from '@itp/testing/qr';
import { DEMO_USER, approveWithPhoneApp, bearerOfDemoUser } from '../flows.js';
import { post } from '../http.js';
import type { Suite } from './context.js';
import { ownHolder } from './oid4vp.suite.js';

/** The site: a relying party of its own (its id unique in the setup's database). */
const RP = {
  id: 'e2e-oidc-rp',
  name: 'E2E relying party',
  secret: randomBytes(24).toString('base64url'),
  /** Its web-site login requests (the QR logins of the login page). */
  requestIdPrefix: 'https://rp.example/',
} as const;

/** The demo user's claims (development mode's seed: no phone number). */
const DEMO_CLAIMS = { sub: DEMO_USER.id, name: DEMO_USER.name, email: 'demo@example.com' };

interface CallbackServer {
  server: Server;
  redirectUri: string;
  /** The Referer each request to it came with, by its path and query. */
  referers: Map<string, string | undefined>;
}

/** The site's callback page: answers 200 to anything (the test reads the request's URL). */
async function startCallbackServer(): Promise<CallbackServer> {
  const referers = new Map<string, string | undefined>();
  const server = createServer((req, res) => {
    referers.set(req.url ?? '', req.headers.referer);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>Signed in</title><p>The site got the code.</p>');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return { server, redirectUri: `http://127.0.0.1:${port}/rp/callback`, referers };
}

interface AuthorizationRequest {
  url: URL;
  verifier: string;
  nonce: string;
  state: string;
}

/**
 * The password form's POST (`<interaction>/login`): not the passkey autofill's options request,
 * which the page also POSTs on load and which may answer after the form is filled.
 */
const isPasswordFormPost = (r: Response): boolean =>
  r.request().method() === 'POST' && new URL(r.url()).pathname.endsWith('/login');

/**
 * OpenID Connect login through the gateway, openid-client as the site and chromium as the
 * browser: password, phone-app QR, wallet QR, Sign-In with Ethereum.
 */
export const oidcSuite: Suite = ({ stack }) => {
  describe('OpenID Connect provider (oidc) through the gateway: openid-client, chromium', () => {
    let browser: Browser | undefined;
    let callback: CallbackServer | undefined;
    let issuer: string;
    let rp: oidc.Configuration;

    beforeAll(async () => {
      const started = await Promise.allSettled([
        launchChromium('the OpenID Connect suite').then((b) => (browser = b)),
        startCallbackServer().then((c) => (callback = c)),
      ]);
      for (const result of started) if (result.status === 'rejected') throw result.reason;
      await runAuthCli(
        [
          'clients',
          'add',
          RP.id,
          '--name',
          RP.name,
          '--secret-stdin',
          '--prefix',
          RP.requestIdPrefix,
          '--redirect-uri',
          callback!.redirectUri,
        ],
        { DATABASE_URL: stack().databaseUrl },
        `${RP.secret}\n`,
      );
      issuer = `${stack().gatewayUrl}/v2/auth/oidc`;
      rp = await oidc.discovery(new URL(issuer), RP.id, RP.secret, undefined, {
        execute: [oidc.allowInsecureRequests],
      });
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      await new Promise((resolve) => (callback ? callback.server.close(resolve) : resolve(null)));
    }, 30_000);

    /** An authorization request as the site makes it, and what it keeps for the callback. */
    const authorization = async (
      extra: Record<string, string> = {},
    ): Promise<AuthorizationRequest> => {
      const verifier = oidc.randomPKCECodeVerifier();
      const nonce = oidc.randomNonce();
      const state = oidc.randomState();
      const url = oidc.buildAuthorizationUrl(rp, {
        redirect_uri: callback!.redirectUri,
        scope: 'openid profile email',
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        nonce,
        state,
        ...extra,
      });
      return { url, verifier, nonce, state };
    };

    /**
     * A fresh browser context (no provider session from an earlier test) on the login page of a
     * new authorization request; `arrival` resolves with the site's callback URL once the browser
     * is sent there.
     */
    const openLoginPage = async (
      errors: string[],
      forwardedFor?: string,
      extra: Record<string, string> = {},
    ) => {
      const request = await authorization(extra);
      // The setups' gateway trusts the loopback hop: a browser "behind a proxy" says its address.
      const context = await browser!.newContext(
        forwardedFor ? { extraHTTPHeaders: { 'x-forwarded-for': forwardedFor } } : {},
      );
      const page = await context.newPage();
      collectPageErrors(page, errors);
      const arrival = page
        .waitForRequest((r) => r.url().startsWith(`${callback!.redirectUri}?`), {
          timeout: 60_000,
        })
        .then((r) => r.url());
      // Keep an early failure of the wait from being an unhandled rejection.
      arrival.catch(() => undefined);
      const res = await page.goto(request.url.href);
      expect(res?.status()).toBe(200);
      expect(page.url()).toMatch(
        new RegExp(`^${issuer.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/interaction/[\\w-]+$`),
      );
      await expect(page.title()).resolves.toBe('Log in');
      expect(res?.headers()['content-security-policy']).toContain("script-src 'self'");
      return { request, page, arrival, close: () => context.close() };
    };

    /** The site's side of the callback: code → tokens, id_token checked, userinfo. */
    const redeem = async (
      callbackUrl: string,
      request: AuthorizationRequest,
      amr: string,
    ): Promise<oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers> => {
      const params = new URL(callbackUrl).searchParams;
      expect(params.get('error')).toBeNull();
      expect(params.get('state')).toBe(request.state);
      expect(params.get('iss')).toBe(issuer);
      const tokens = await oidc.authorizationCodeGrant(rp, new URL(callbackUrl), {
        pkceCodeVerifier: request.verifier,
        expectedNonce: request.nonce,
        expectedState: request.state,
      });
      expect(tokens.token_type.toLowerCase()).toBe('bearer');
      const { payload, protectedHeader } = await jwtVerify(
        tokens.id_token!,
        createRemoteJWKSet(new URL(rp.serverMetadata().jwks_uri!)),
        { issuer, audience: RP.id, algorithms: ['ES256'] },
      );
      expect(protectedHeader.alg).toBe('ES256');
      expect(payload).toMatchObject({ ...DEMO_CLAIMS, nonce: request.nonce, amr: [amr] });
      expect(payload.auth_time).toEqual(expect.any(Number));
      expect(tokens.claims()).toMatchObject({ sub: DEMO_USER.id, amr: [amr] });
      const userinfo = await oidc.fetchUserInfo(rp, tokens.access_token, DEMO_USER.id);
      expect(userinfo).toMatchObject(DEMO_CLAIMS);
      return tokens;
    };

    /** What the browser reported: nothing (no script error, no CSP violation). */
    const expectNoPageErrors = (errors: string[]) => expect(errors).toEqual([]);

    /** The same, but for the 401 of a refused password form, which Chromium reports on the console. */
    const expectNoPageErrorsBut401 = (errors: string[]) =>
      expect(errors.filter((e) => !/Failed to load resource: .* status of 401\b/.test(e))).toEqual(
        [],
      );

    /**
     * A wrong password for the demo user on the login page: the page comes back as the form
     * post's answer (401, at `<interaction>/login`) with the refusal and the id typed. Returns the
     * interaction's URL (`<issuer>/interaction/<uid>`, where the page was first shown).
     */
    const refusePassword = async (page: Page): Promise<string> => {
      const interaction = page.url();
      await page.getByLabel('User id', { exact: true }).fill(DEMO_USER.id);
      await page.getByLabel('Password', { exact: true }).fill('not-the-password');
      const [answer] = await Promise.all([
        page.waitForResponse(isPasswordFormPost),
        page.getByRole('button', { name: 'Log in' }).click(),
      ]);
      expect(answer.status()).toBe(401);
      await page.waitForURL(`${interaction}/login`);
      await expect(page.locator('#login-error').textContent()).resolves.toMatch(
        /Invalid id or password/,
      );
      await expect(page.getByLabel('User id', { exact: true }).inputValue()).resolves.toBe(
        DEMO_USER.id,
      );
      return interaction;
    };

    /** A new Ethereum account whose address the demo user linked (a signed SIWE message + JWT). */
    const linkedAccount = async (): Promise<{ account: PrivateKeyAccount; chainId: number }> => {
      const gw = stack().gatewayUrl;
      const account = privateKeyToAccount(generatePrivateKey());
      const issued = await post(`${gw}/v2/auth/siwe/nonce`, {});
      expect(issued.status).toBe(200);
      const linkMessage = createSiweMessage({
        domain: issued.body.domain,
        address: account.address,
        uri: issued.body.uri,
        version: '1',
        chainId: issued.body.chainId,
        nonce: issued.body.nonce,
      });
      const linked = await post(
        `${gw}/v2/auth/link-address`,
        { message: linkMessage, signature: await account.signMessage({ message: linkMessage }) },
        await bearerOfDemoUser(gw),
      );
      expect(linked.status).toBe(200);
      return { account, chainId: issued.body.chainId as number };
    };

    /**
     * The browser's wallet: an EIP-1193 provider put into the page's current document (a new
     * document, e.g. after a form post, needs it again); its key stays in the test (viem signs).
     * Returns the messages it is asked to sign, as the wallet shows them to the user.
     */
    const injectWallet = async (page: Page, account: PrivateKeyAccount): Promise<string[]> => {
      const shown: string[] = [];
      await page.exposeFunction('__e2eWalletSign', async (data: Hex, address: string) => {
        expect(address.toLowerCase()).toBe(account.address.toLowerCase());
        const message = hexToString(data);
        shown.push(message);
        return account.signMessage({ message });
      });
      await page.evaluate((address) => {
        const sign = (globalThis as unknown as Record<string, unknown>).__e2eWalletSign as (
          data: string,
          address: string,
        ) => Promise<string>;
        (globalThis as unknown as { ethereum: unknown }).ethereum = {
          request: async ({ method, params }: { method: string; params?: string[] }) => {
            if (method === 'eth_requestAccounts' || method === 'eth_accounts') {
              return [address.toLowerCase()];
            }
            if (method === 'personal_sign' && params) return sign(params[0]!, params[1]!);
            throw Object.assign(new Error(`unsupported: ${method}`), { code: 4200 });
          },
        };
      }, account.address);
      return shown;
    };

    it('publishes discovery at the gateway’s issuer: PKCE S256, ES256 id_tokens, its JWKS', async () => {
      const metadata = rp.serverMetadata();
      expect(metadata.issuer).toBe(issuer);
      for (const endpoint of [
        metadata.authorization_endpoint,
        metadata.token_endpoint,
        metadata.userinfo_endpoint,
        metadata.jwks_uri,
      ]) {
        expect(endpoint?.startsWith(`${issuer}/`)).toBe(true);
      }
      expect(metadata.code_challenge_methods_supported).toEqual(['S256']);
      // OpenID Connect Discovery 1.0 §3: RS256 (the stack's JWT_SIGNING_KEYS hold an RSA key).
      expect(metadata.id_token_signing_alg_values_supported).toEqual(['ES256', 'RS256']);
      const jwks = await fetch(metadata.jwks_uri!);
      expect(jwks.status).toBe(200);
      const { keys } = (await jwks.json()) as { keys: Array<Record<string, unknown>> };
      expect(keys.length).toBeGreaterThan(0);
      expect(keys.every((k) => k.d === undefined && k.p === undefined)).toBe(true);
      expect(keys.map((k) => k.alg).sort()).toEqual(expect.arrayContaining(['ES256', 'RS256']));
    });

    it('logs the demo user in with the password form (amr pwd)', async () => {
      const errors: string[] = [];
      const { request, page, arrival, close } = await openLoginPage(errors);
      try {
        await page.getByLabel('User id', { exact: true }).fill(DEMO_USER.id);
        await page.getByLabel('Password', { exact: true }).fill(DEMO_USER.password);
        await page.getByRole('button', { name: 'Log in' }).click();
        const reached = await arrival;
        await redeem(reached, request, 'pwd');
        // The browser lands on the site; the login page's URL does not follow it as a Referer.
        await page.waitForURL(`${callback!.redirectUri}?**`);
        const { pathname, search } = new URL(reached);
        expect(callback!.referers.has(`${pathname}${search}`)).toBe(true);
        expect(callback!.referers.get(`${pathname}${search}`)).toBeUndefined();
        expectNoPageErrors(errors);
      } finally {
        await close();
      }
    }, 120_000);

    it('keeps the site logged in with refresh tokens (offline_access, prompt=consent): rotated, then revoked', async () => {
      const errors: string[] = [];
      const { request, page, arrival, close } = await openLoginPage(errors, undefined, {
        scope: 'openid profile email offline_access',
        prompt: 'consent',
      });
      try {
        await page.getByLabel('User id', { exact: true }).fill(DEMO_USER.id);
        await page.getByLabel('Password', { exact: true }).fill(DEMO_USER.password);
        await page.getByRole('button', { name: 'Log in' }).click();
        const tokens = await redeem(await arrival, request, 'pwd');
        const first = tokens.refresh_token!;
        expect(first).toEqual(expect.any(String));
        const refreshed = await oidc.refreshTokenGrant(rp, first);
        expect(refreshed.claims()).toMatchObject({ sub: DEMO_USER.id, amr: ['pwd'] });
        expect(refreshed.refresh_token).not.toBe(first);
        // The site logs out: its refresh token is revoked at the gateway's issuer.
        expect(rp.serverMetadata().revocation_endpoint).toBe(`${issuer}/token/revocation`);
        await oidc.tokenRevocation(rp, refreshed.refresh_token!);
        await expect(oidc.refreshTokenGrant(rp, refreshed.refresh_token!)).rejects.toMatchObject({
          error: 'invalid_grant',
        });
        expectNoPageErrors(errors);
      } finally {
        await close();
      }
    }, 120_000);

    it('shows a wrong password on the page and issues no code', async () => {
      const errors: string[] = [];
      // An address of its own: this failure counts toward no other test's per-address limit.
      const { page, close } = await openLoginPage(errors, '203.0.113.70');
      try {
        await page.getByLabel('User id', { exact: true }).fill(DEMO_USER.id);
        await page.getByLabel('Password', { exact: true }).fill('not-the-password');
        const [answer] = await Promise.all([
          page.waitForResponse(isPasswordFormPost),
          page.getByRole('button', { name: 'Log in' }).click(),
        ]);
        expect(answer.status()).toBe(401);
        await expect(page.locator('#login-error').textContent()).resolves.toMatch(
          /Invalid id or password/,
        );
        expect(page.url().startsWith(callback!.redirectUri)).toBe(false);
        // Chromium reports the form's 401 answer on the console; nothing else may be there.
        expect(
          errors.filter((e) => !/Failed to load resource: .* status of 401\b/.test(e)),
        ).toEqual([]);
      } finally {
        await close();
      }
    }, 120_000);

    it('logs the demo user in through the phone app’s QR code approved with a VP (amr app)', async () => {
      const gw = stack().gatewayUrl;
      const errors: string[] = [];
      const { request, page, arrival, close } = await openLoginPage(errors);
      try {
        // The person picks the QR logins (ADR 0036: a page nobody picks them on makes none).
        await page.click('#qr-show');
        // What the phone app reads: the requestId in the QR code (the attribute says the same).
        const qr = page.locator('#app-qr');
        const requestId = decodeQr((await qr.getAttribute('src')) ?? '');
        expect(requestId).toMatch(
          new RegExp(`^${RP.requestIdPrefix.replace(/[.]/g, '\\.')}requestId=\\d+$`),
        );
        expect(await qr.getAttribute('data-request-id')).toBe(requestId);

        // The phone app: its user's credential presented to the verifier, for that requestId.
        const approved = await approveWithPhoneApp(gw, requestId!, 'oidc-phone-app');
        expect(approved.status).toBe(200);
        expect(approved.body.userId).toBe(DEMO_USER.id);

        // The page's poll sees the approval and continues to the site.
        await redeem(await arrival, request, 'app');
        expectNoPageErrors(errors);
      } finally {
        await close();
      }
    }, 120_000);

    it('logs the demo user in with a third-party OpenID4VP wallet answering the wallet QR code (amr vp)', async () => {
      const holder = await ownHolder(stack(), 'oidc-wallet');
      const errors: string[] = [];
      const { request, page, arrival, close } = await openLoginPage(errors);
      try {
        await page.click('#qr-show');
        // The QR code and the same-device link say the same openid4vp:// URI.
        const link = (await page.locator('#wallet-link').getAttribute('href')) ?? '';
        expect(link).toMatch(/^openid4vp:\/\/\?client_id=[^&]+&request_uri=[^&]+$/);
        const qrUri = decodeQr((await page.locator('#wallet-qr').getAttribute('src')) ?? '');
        expect(qrUri).toBe(link);

        const { resolved, answer } = await holder.wallet.logIn(link, [holder.vcJwt]);
        expect(resolved.request.client_id).toBe(new URL(link).searchParams.get('client_id'));
        expect(answer.status).toBe(200);

        await redeem(await arrival, request, 'vp');
        expectNoPageErrors(errors);
      } finally {
        await close();
      }
    }, 120_000);

    it('logs the demo user in with the browser’s Ethereum wallet: Sign-In with Ethereum through an injected EIP-1193 provider (amr siwe)', async () => {
      const gw = stack().gatewayUrl;
      // Once: the demo user links the wallet's address (a SIWE message it signed + the user's JWT).
      const { account, chainId } = await linkedAccount();

      const errors: string[] = [];
      const { request, page, arrival, close } = await openLoginPage(errors);
      try {
        const shown = await injectWallet(page, account);

        await page.getByRole('button', { name: 'Sign in with Ethereum' }).click();
        await redeem(await arrival, request, 'siwe');
        // What the wallet showed the user: a message for this site, this account, this chain.
        expect(shown).toHaveLength(1);
        const message = shown[0]!;
        expect(message).toMatch(
          new RegExp(`^${new URL(gw).host.replace(/[.]/g, '\\.')} wants you to sign in`),
        );
        expect(message).toContain(`\n${account.address}\n`);
        expect(message).toContain(`Chain ID: ${chainId}`);
        expectNoPageErrors(errors);
      } finally {
        await close();
      }
    }, 120_000);

    it('keeps the password form working after a wrong password: the right one then logs in (amr pwd)', async () => {
      const gw = stack().gatewayUrl;
      // An address of its own (its failure counts toward no other test's limit) that has logged in
      // as the demo user before: the per-id hold (other tests' failures for the id) never applies.
      const from = '203.0.113.71';
      const before = await post(
        `${gw}/v2/auth/auth-user`,
        { id: DEMO_USER.id, password: DEMO_USER.password },
        { 'x-forwarded-for': from },
      );
      expect(before.status).toBe(200);
      const errors: string[] = [];
      const { request, page, arrival, close } = await openLoginPage(errors, from);
      try {
        const interaction = await refusePassword(page);
        await page.getByLabel('Password', { exact: true }).fill(DEMO_USER.password);
        const [answer] = await Promise.all([
          page.waitForResponse(isPasswordFormPost),
          page.getByRole('button', { name: 'Log in' }).click(),
        ]);
        // The form posts to its interaction (not to `<uid>/login` below the refused page's URL).
        expect(answer.url()).toBe(`${interaction}/login`);
        expect(answer.status()).toBe(303);
        await redeem(await arrival, request, 'pwd');
        expectNoPageErrorsBut401(errors);
      } finally {
        await close();
      }
    }, 120_000);

    it('keeps the phone app’s QR code working after a wrong password: its approval logs in (amr app)', async () => {
      const gw = stack().gatewayUrl;
      const errors: string[] = [];
      const { request, page, arrival, close } = await openLoginPage(errors, '203.0.113.72');
      try {
        await page.click('#qr-show');
        const requestId = await page.locator('#app-qr').getAttribute('data-request-id');
        expect(requestId).toEqual(expect.any(String));
        const interaction = await refusePassword(page);
        // Picked again on the refused page, the QR codes are the same login request ...
        await page.click('#qr-show');
        const qr = page.locator('#app-qr');
        expect(decodeQr((await qr.getAttribute('src')) ?? '')).toBe(requestId);
        await expect(page.locator('#wallet-qr').count()).resolves.toBe(1);
        // ... and its script polls the interaction's status (pending until the app approves).
        const poll = await page.waitForResponse((r) => r.url().endsWith('/status'));
        expect(poll.url()).toBe(`${interaction}/status`);
        await expect(poll.json()).resolves.toEqual({ status: 'pending' });

        const approved = await approveWithPhoneApp(gw, requestId!, 'oidc-phone-app-after-refusal');
        expect(approved.status).toBe(200);
        await redeem(await arrival, request, 'app');
        expectNoPageErrorsBut401(errors);
      } finally {
        await close();
      }
    }, 120_000);

    it('keeps Sign-In with Ethereum on the page after a wrong password: the wallet logs in (amr siwe)', async () => {
      const { account } = await linkedAccount();
      const errors: string[] = [];
      const { request, page, arrival, close } = await openLoginPage(errors, '203.0.113.73');
      try {
        const interaction = await refusePassword(page);
        const button = page.getByRole('button', { name: 'Sign in with Ethereum' });
        await expect(button.count()).resolves.toBe(1);
        const shown = await injectWallet(page, account);
        const [asked] = await Promise.all([
          page.waitForResponse((r) => r.url().endsWith('/siwe/message')),
          button.click(),
        ]);
        expect(asked.url()).toBe(`${interaction}/siwe/message`);
        await redeem(await arrival, request, 'siwe');
        expect(shown).toHaveLength(1);
        expectNoPageErrorsBut401(errors);
      } finally {
        await close();
      }
    }, 120_000);
  });
};
