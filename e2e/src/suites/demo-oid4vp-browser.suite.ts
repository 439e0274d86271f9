/**
 * The demo web site (`/demo/site` of the gateway in development mode) logged in by a third-party
 * OpenID4VP wallet, in a real browser (Debian's chromium driven by playwright-core): the page
 * shows the login request's `openid4vp://` QR code beside the requestId's, the wallet
 * (`Oid4vpWallet`: the OpenWallet Foundation's `Openid4vpClient`, holding a key only this test
 * holds) answers what the QR code says, and the page's poll then shows the logged-in user.
 * A browser's view of one page: run by one setup (the one-instance setup of through-gateway.spec.ts), not by every one.
 * Screenshots are kept under test-artifacts/demo-oid4vp/ (gitignored).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { REPO_ROOT } from '@itp/harness';
import { collectPageErrors as collectErrors, launchChromium } from '@itp/testing/chromium';
import { decodeQr } from '@itp/testing/qr';
import { DEMO_USER } from '../flows.js';
import type { Suite } from './context.js';
import { ownHolder } from './oid4vp.suite.js';

const artifacts = join(REPO_ROOT, 'test-artifacts', 'demo-oid4vp');

export const demoOid4vpBrowserSuite: Suite = ({ stack: setupStack }) => {
  describe('/demo/site in a browser, logged in by a third-party OpenID4VP wallet (chromium)', () => {
    let browser: Browser | undefined;

    beforeAll(async () => {
      mkdirSync(artifacts, { recursive: true });
      browser = await launchChromium('the /demo/site OpenID4VP browser test');
    }, 30_000);

    afterAll(async () => {
      await browser?.close();
    }, 30_000);

    it('the wallet answers the page’s OpenID4VP QR code and the page shows the logged-in user', async () => {
      const stack = setupStack();
      const holder = await ownHolder(stack, 'demo-oid4vp-browser');
      const errors: string[] = [];
      const site = await (browser as Browser).newPage();
      collectErrors(site, errors);
      try {
        // The web site: its server starts the login request; the page shows both QR codes.
        await site.goto(`${stack.gatewayUrl}/demo/site`);
        await site.click('#start');
        await site.locator('#oid4vp-qr').waitFor({ state: 'visible', timeout: 30_000 });
        await site.locator('#qr').waitFor({ state: 'visible' });

        // What the QR code says (decoded from its image) is the caption's text and its link.
        const captionUri = (await site.locator('#oid4vp-uri-text').textContent()) ?? '';
        expect(captionUri).toMatch(/^openid4vp:\/\/\?client_id=[^&]+&request_uri=[^&]+$/);
        expect(await site.locator('#oid4vp-uri').getAttribute('href')).toBe(captionUri);
        const qrPng = await site.locator('#oid4vp-qr').screenshot();
        writeFileSync(join(artifacts, 'site-oid4vp-qr.png'), qrPng);
        const openid4vpUri = decodeQr(qrPng);
        expect(openid4vpUri).toBe(captionUri);
        await site.screenshot({ path: join(artifacts, '1-site-waiting.png'), fullPage: true });

        // The wallet: resolves the URI (request object signed by the verifier DID), picks its
        // credential with the DCQL query, presents it with its own key, posts the response.
        const { resolved, answer } = await holder.wallet.logIn(openid4vpUri ?? '', [holder.vcJwt]);
        expect(resolved.request.client_id).toBe(new URL(captionUri).searchParams.get('client_id'));
        expect(answer.status).toBe(200);

        // The page's poll collects the result.
        await site.locator('#user').waitFor({ state: 'visible', timeout: 30_000 });
        expect(await site.locator('#request').isHidden()).toBe(true);
        expect(await site.locator('#user-id').textContent()).toBe(DEMO_USER.id);
        expect(await site.locator('#user-name').textContent()).toBe(DEMO_USER.name);
        expect(await site.locator('#status').textContent()).toBe('Logged in.');
        await site.screenshot({ path: join(artifacts, '2-site-logged-in.png'), fullPage: true });
      } catch (err) {
        await site
          .screenshot({ path: join(artifacts, 'failure.png'), fullPage: true })
          .catch(() => undefined);
        throw err;
      }

      expect(errors.filter((e) => !e.includes('Failed to load resource'))).toEqual([]);
    }, 120_000);
  });
};
