/**
 * The /demo QR login end to end in a real browser (Debian's chromium driven by playwright-core)
 * against the dev stack of `npm start` (dev mode: the demo user and relying party are seeded):
 * the web site shows a QR code, the phone app logs in, makes its wallet, DID and credential and
 * approves the code's requestId with a VP, and the web site then shows the logged-in user; and the
 * OpenID Connect site (/demo/oidc, openid-client) logs in on the provider's password form; and a
 * passkey made on /demo/passkeys (Chromium's virtual authenticator) signs in there and on the
 * provider's login page.
 * Screenshots are kept under test-artifacts/demo/ (gitignored).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { REPO_ROOT } from '@itp/harness';
import { collectPageErrors as collectErrors, launchChromium } from '@itp/testing/chromium';
import { decodeQr } from '@itp/testing/qr';
import { VirtualAuthenticator } from '@itp/testing/virtual-authenticator';
import type { DevSuite } from './context.js';

const artifacts = join(REPO_ROOT, 'test-artifacts', 'demo');

export const demoBrowserSuite: DevSuite = ({ stack: devStack }) => {
  describe('/demo in a browser (chromium)', () => {
    let browser: Browser | undefined;

    beforeAll(async () => {
      mkdirSync(artifacts, { recursive: true });
      browser = await launchChromium('the /demo browser test');
    }, 30_000);

    afterAll(async () => {
      await browser?.close();
    }, 30_000);

    it('logs the web site in with the phone app: QR code → VP → logged-in user', async () => {
      const url = devStack().url;
      const errors: string[] = [];
      const site = await (browser as Browser).newPage();
      const phone = await (await (browser as Browser).newContext()).newPage();
      collectErrors(site, errors);
      collectErrors(phone, errors);

      // The web site: its server starts the login request; the page shows the QR code.
      await site.goto(`${url}/demo/site`);
      await site.click('#start');
      await site.locator('#qr').waitFor({ state: 'visible' });
      const requestId = (await site.locator('#request-id').textContent()) ?? '';
      // The demo site's identifier follows the stack's PORT: <PUBLIC_URL>/demo? (localhost).
      expect(requestId.startsWith(`${url}/demo?requestId=`)).toBe(true);
      expect(requestId).toMatch(/^http:\/\/localhost:\d+\/demo\?requestId=\d{52}$/);
      const qrPng = await site.locator('#qr').screenshot();
      writeFileSync(join(artifacts, 'site-qr.png'), qrPng);
      expect(decodeQr(qrPng)).toBe(requestId);
      await site.screenshot({ path: join(artifacts, '1-site-waiting.png') });

      // The phone app: password login, then wallet, DID and credential.
      await phone.goto(`${url}/demo/phone`);
      await phone.fill('#user-id', 'demo');
      await phone.fill('#password', 'demo-password');
      await phone.click('#login');
      await phone.locator('#setup li.ok').waitFor({ timeout: 30_000 });
      expect(await phone.locator('#setup').textContent()).toContain('Wallet created');
      expect(await phone.locator('#did').textContent()).toMatch(/^did:ethr:0x[0-9a-fA-F]{40}$/);

      // Logging in again reuses the wallet, the DID and the credential.
      await phone.click('#login');
      await phone.locator('#setup li.ok').waitFor({ timeout: 30_000 });
      const again = (await phone.locator('#setup').textContent()) ?? '';
      expect(again).toContain('Wallet reused');
      expect(again).toContain('Credential reused');
      await phone.screenshot({ path: join(artifacts, '2-phone-ready.png'), fullPage: true });

      // Approve what the QR code says (as decoded from the image).
      await phone.fill('#request-id', decodeQr(qrPng) ?? '');
      await phone.click('#approve');
      await phone.locator('#approve-status.ok').waitFor({ timeout: 30_000 });
      await phone.screenshot({ path: join(artifacts, '3-phone-approved.png'), fullPage: true });

      // The web site's poll collects the result.
      await site.locator('#user').waitFor({ state: 'visible', timeout: 30_000 });
      expect(await site.locator('#user-id').textContent()).toBe('demo');
      expect(await site.locator('#user-name').textContent()).toBe('Demo User');
      expect(await site.locator('#status').textContent()).toBe('Logged in.');
      await site.screenshot({ path: join(artifacts, '4-site-logged-in.png') });

      // The same requestId cannot be approved twice.
      await phone.click('#approve');
      await phone.locator('#approve-status.error').waitFor({ timeout: 30_000 });

      expect(errors.filter((e) => !e.includes('Failed to load resource'))).toEqual([]);
    }, 90_000);

    it('logs in on /demo/oidc through the OpenID Connect provider: password → claims → logout', async () => {
      const { url, port } = devStack();
      const errors: string[] = [];
      const page = await (await (browser as Browser).newContext()).newPage();
      collectErrors(page, errors);

      await page.goto(`${url}/demo/oidc`);
      await page.click('#login');
      // The provider's login page, at the stack's PUBLIC_URL: http://localhost:<PORT>, one host
      // name for the demo and the issuer.
      await page.waitForURL(/\/v2\/auth\/oidc\/interaction\//);
      expect(new URL(page.url()).host).toBe(`localhost:${port}`);
      await page.getByLabel('User id', { exact: true }).fill('demo');
      await page.getByLabel('Password', { exact: true }).fill('demo-password');
      await page.screenshot({ path: join(artifacts, 'oidc-1-provider-login.png'), fullPage: true });
      await page.getByRole('button', { name: 'Log in', exact: true }).click();

      // Back on the site (localhost), which redeemed the code and fetched userinfo.
      await page.waitForURL(`${url}/demo/oidc/callback?**`);
      expect(await page.locator('#subject').textContent()).toBe('demo');
      const claim = (table: string, name: string) =>
        page.locator(`#${table} th:text-is("${name}") + td`).textContent();
      expect(await claim('id-token-claims', 'amr')).toBe('["pwd"]');
      expect(await claim('id-token-claims', 'aud')).toBe('demo-site');
      expect(await claim('id-token-claims', 'iss')).toBe(`http://localhost:${port}/v2/auth/oidc`);
      expect(await claim('userinfo', 'name')).toBe('Demo User');
      expect(await claim('userinfo', 'email')).toBe('demo@example.com');
      await page.screenshot({ path: join(artifacts, 'oidc-2-site-logged-in.png'), fullPage: true });

      // Logout: the provider asks, then sends the browser back to the site, logged out.
      await page.click('#logout');
      await page.getByRole('button', { name: 'Log out', exact: true }).click();
      await page.waitForURL(`${url}/demo/oidc`);
      await page.locator('#login').waitFor();
      expect(await page.locator('#subject').count()).toBe(0);

      expect(errors.filter((e) => !e.includes('Failed to load resource'))).toEqual([]);
    }, 60_000);

    it('adds a passkey on /demo/passkeys, signs in with it there and on /demo/oidc (amr hwk, user, mfa), then removes it', async () => {
      const { url } = devStack();
      const errors: string[] = [];
      const page = await (await (browser as Browser).newContext()).newPage();
      collectErrors(page, errors);
      await page.goto(`${url}/demo/passkeys`);
      await VirtualAuthenticator.attach(page);
      const logIn = async () => {
        await page.fill('#user-id', 'demo');
        await page.fill('#password', 'demo-password');
        await page.click('#login');
        await page.locator('#account').waitFor({ state: 'visible' });
      };
      await logIn();
      await page.fill('#passkey-name', 'Demo laptop');
      await page.click('#add');
      await page.locator('#passkeys li', { hasText: 'Demo laptop' }).waitFor();
      await page.click('#signin');
      await page.locator('#signed-in').waitFor({ state: 'visible' });
      expect(await page.locator('#signed-in-user-id').textContent()).toBe('demo');
      await page.screenshot({ path: join(artifacts, 'passkeys-1-signed-in.png'), fullPage: true });

      // The OpenID Connect demo site: the provider's login page offers the passkey. Without the
      // autofill (which the virtual authenticator would answer at once), through the button.
      await page.addInitScript(() => {
        const pkc = (globalThis as { PublicKeyCredential?: Record<string, unknown> })
          .PublicKeyCredential;
        if (pkc) delete pkc.isConditionalMediationAvailable;
      });
      await page.goto(`${url}/demo/oidc`);
      await page.click('#login');
      await page.waitForURL(/\/v2\/auth\/oidc\/interaction\//);
      expect(await page.getAttribute('#id', 'autocomplete')).toBe('username webauthn');
      await page.click('#passkey-button');
      await page.waitForURL(`${url}/demo/oidc/callback?**`);
      const amr = await page.locator('#id-token-claims th:text-is("amr") + td').textContent();
      expect(JSON.parse(amr ?? 'null')).toEqual(['hwk', 'user', 'mfa']);
      // Logged out at the provider: the demo user holds no grant of the demo site afterwards (the
      // CLI suite's revoke-site expects none).
      await page.click('#logout');
      await page.getByRole('button', { name: 'Log out', exact: true }).click();
      await page.waitForURL(`${url}/demo/oidc`);

      // Removed, it no longer signs in.
      await page.goto(`${url}/demo/passkeys`);
      await logIn();
      await page
        .locator('#passkeys li', { hasText: 'Demo laptop' })
        .locator('button.remove')
        .click();
      await page.locator('#passkeys-none').waitFor({ state: 'visible' });
      await page.click('#signin');
      await page.locator('#signin-status', { hasText: /not registered here/ }).waitFor();
      expect(
        errors.filter((e) => !e.includes('Failed to load resource') && !e.includes('401')),
      ).toEqual([]);
    }, 90_000);
  });
};
