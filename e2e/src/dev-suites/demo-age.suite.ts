/**
 * /demo/age ("prove you are over 18", the second relying-party use case beside login) in a real
 * browser (Debian's chromium driven by playwright-core) against the dev stack of `npm start`:
 * the page shows a presentation request's `openid4vp://` QR code; a third-party EU wallet
 * (@itp/presentations/testing's `testWallet`: the OpenWallet Foundation's `Openid4vpClient`, the request's x5c chain
 * checked against the stack's verifier CA, the response encrypted with jose) first declines —
 * the page says so — then, after "Try again" and a new code, presents `age_over_18` alone from
 * an EUDI PID SD-JWT VC (or a PID mdoc) of a test PID provider the stack trusts
 * (TRUSTED_ISSUER_CERTIFICATES, e2e/src/dev-stack.spec.ts), and the page shows "Verified: over 18"
 * with the issuer and no other claim; a request nobody answers expires on the page.
 * Screenshots are kept under test-artifacts/demo-age/ (gitignored).
 */
import { mkdirSync } from 'node:fs';
import type { webcrypto } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Browser, Page } from 'playwright-core';
import { setGlobalConfig } from '@openid4vc/utils';
import { REPO_ROOT } from '@itp/harness';
import {
  issueTestMdoc,
  issueTestSdJwtVc,
  presentTestMdoc,
  presentTestSdJwtVc,
  TEST_SD_JWT_ISSUER,
  testWallet,
  type TestWallet,
} from '@itp/presentations/testing';
import { collectPageErrors, launchChromium } from '@itp/testing/chromium';
import { decodeQr } from '@itp/testing/qr';
import type { DevSuite } from './context.js';

const artifacts = join(REPO_ROOT, 'test-artifacts', 'demo-age');
const PID_VCT = 'urn:eudi:pid:1';
const PID_DOCTYPE = 'eu.europa.ec.eudi.pid.1';
/** The holder's PID: everything but age_over_18 must stay in the wallet. */
const PID_CLAIMS = {
  given_name: 'Erika',
  family_name: 'Mustermann',
  birthdate: '1964-08-12',
  age_over_18: true,
};
const NOT_DISCLOSED = /Erika|Mustermann|1964/;

interface Holder {
  publicJwk: webcrypto.JsonWebKey;
  privateJwk: webcrypto.JsonWebKey;
}

async function newHolder(): Promise<Holder> {
  const keys = await generateKeyPair('ES256', { extractable: true });
  return {
    publicJwk: (await exportJWK(keys.publicKey)) as webcrypto.JsonWebKey,
    privateJwk: (await exportJWK(keys.privateKey)) as webcrypto.JsonWebKey,
  };
}

/** Starts a request on the page; the code's URI as the QR image, the link and the attribute say. */
async function startRequest(page: Page, previous?: string): Promise<string> {
  await page.click('#start');
  // The request section with a code, a new one when there was one (URIs hold no quote).
  const shown = previous === undefined ? '' : `:not([data-openid4vp-uri="${previous}"])`;
  await page
    .locator(`#request[data-openid4vp-uri]${shown}`)
    .waitFor({ state: 'visible', timeout: 30_000 });
  await page.locator('#qr').waitFor({ state: 'visible' });
  const uri = (await page.getAttribute('#request', 'data-openid4vp-uri')) ?? '';
  expect(uri).toMatch(/^openid4vp:\/\/\?client_id=x509_san_dns%3Alocalhost&request_uri=http/);
  expect(decodeQr(await page.locator('#qr').screenshot())).toBe(uri);
  expect(await page.getAttribute('#oid4vp-uri', 'href')).toBe(uri);
  expect(await page.locator('#oid4vp-uri-text').textContent()).toBe(uri);
  return uri;
}

export const demoAgeSuite: DevSuite = ({ stack: devStack, pidIssuer }) => {
  describe('/demo/age in a browser: an EU wallet proves age_over_18 (chromium)', () => {
    let browser: Browser | undefined;
    let wallet: TestWallet;

    beforeAll(async () => {
      mkdirSync(artifacts, { recursive: true });
      browser = await launchChromium('the /demo/age browser test');
    }, 30_000);

    afterAll(async () => {
      await browser?.close();
    }, 30_000);

    /** The wallet trusts the stack's verifier CA (served in development). */
    const walletOfStack = async (): Promise<TestWallet> => {
      const res = await fetch(`${devStack().url}/v2/auth/oid4vp/verifier-ca.pem`);
      expect(res.status).toBe(200);
      setGlobalConfig({ allowInsecureUrls: true }); // the stack serves plain HTTP on loopback
      const { url } = devStack();
      return testWallet({ verifierCaPem: await res.text(), publicUrl: url, serviceUrl: url });
    };

    it('declined first ("Not verified"), then "Try again": a new code, age_over_18 alone from a PID SD-JWT VC → "Verified: over 18"', async () => {
      const { url } = devStack();
      wallet = await walletOfStack();
      const holder = await newHolder();
      const pid = await issueTestSdJwtVc({
        issuer: pidIssuer().signer,
        holderPublicJwk: holder.publicJwk,
        vct: PID_VCT,
        claims: PID_CLAIMS,
        disclosable: Object.keys(PID_CLAIMS),
      });
      const errors: string[] = [];
      const page = await (await (browser as Browser).newContext()).newPage();
      collectPageErrors(page, errors);
      try {
        await page.goto(`${url}/demo/age`);
        expect(await page.locator('h1').textContent()).toBe('Prove you are over 18');

        // 1. The wallet reads the request (x5c chain to the verifier CA, x509_san_dns:localhost)
        // and declines: the OAuth error response (no library call makes one: a form post).
        const first = await startRequest(page);
        await page.screenshot({ path: join(artifacts, '1-waiting.png'), fullPage: true });
        const declined = await wallet.resolve(first);
        const request = declined.authorizationRequestPayload;
        expect(request.client_id).toBe('x509_san_dns:localhost');
        expect(request.response_mode).toBe('direct_post.jwt');
        expect(request.dcql_query).toMatchObject({
          credentials: [
            { id: 'pid-sd-jwt', format: 'dc+sd-jwt', meta: { vct_values: [PID_VCT] } },
            { id: 'pid-mdoc', format: 'mso_mdoc', meta: { doctype_value: PID_DOCTYPE } },
          ],
          credential_sets: [{ options: [['pid-sd-jwt'], ['pid-mdoc']] }],
        });
        const refusal = await fetch(String(request.response_uri), {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ error: 'access_denied', state: String(request.state) }),
        });
        expect(refusal.status).toBe(200);
        await page.locator('#verdict.error').waitFor({ timeout: 30_000 });
        expect(await page.locator('#verdict').textContent()).toBe(
          'Not verified: the wallet declined (access_denied)',
        );
        expect(await page.locator('#issuer-line').isHidden()).toBe(true);
        expect(await page.locator('#request').isHidden()).toBe(true);
        expect(await page.locator('#start').textContent()).toBe('Try again');
        await page.screenshot({ path: join(artifacts, '2-declined.png'), fullPage: true });

        // 2. Try again: a new request, a new code; the wallet discloses age_over_18 only.
        const second = await startRequest(page, first);
        expect(second).not.toBe(first);
        expect(await page.locator('#result').isHidden()).toBe(true);
        const resolved = await wallet.resolve(second);
        const presentation = await presentTestSdJwtVc(pid, {
          holderPrivateJwk: holder.privateJwk,
          disclose: ['age_over_18'],
          nonce: String(resolved.authorizationRequestPayload.nonce),
          audience: String(resolved.authorizationRequestPayload.client_id),
        });
        const { status, body } = await wallet.answer(resolved, { 'pid-sd-jwt': [presentation] });
        expect({ status, body }).toEqual({ status: 200, body: {} });

        await page.locator('#verdict.ok').waitFor({ timeout: 30_000 });
        expect(await page.locator('#verdict').textContent()).toBe('Verified: over 18');
        expect(await page.locator('#issuer').textContent()).toBe(TEST_SD_JWT_ISSUER);
        expect(await page.locator('#format').textContent()).toBe('an SD-JWT VC');
        expect(await page.locator('#learned').textContent()).toMatch(
          /^What this site learned: age_over_18 is true, who issued the PID .*Nothing else/,
        );
        expect(await page.locator('main').textContent()).not.toMatch(NOT_DISCLOSED);
        expect(await page.locator('#start').textContent()).toBe('Try again');
        await page.screenshot({ path: join(artifacts, '3-verified.png'), fullPage: true });

        // The answered request is over: the same answer again is refused.
        const again = await wallet.answer(resolved, { 'pid-sd-jwt': [presentation] });
        expect(again.status).toBe(400);
      } catch (err) {
        await page
          .screenshot({ path: join(artifacts, 'failure.png'), fullPage: true })
          .catch(() => undefined);
        throw err;
      }
      expect(errors.filter((e) => !e.includes('Failed to load resource'))).toEqual([]);
    }, 120_000);

    it('verifies age_over_18 presented from a PID mdoc (the other option of the query)', async () => {
      const holder = await newHolder();
      const mdoc = await issueTestMdoc({
        issuer: pidIssuer().signer,
        devicePublicJwk: holder.publicJwk,
        docType: PID_DOCTYPE,
        namespaces: { [PID_DOCTYPE]: PID_CLAIMS },
      });
      const errors: string[] = [];
      const page = await (await (browser as Browser).newContext()).newPage();
      collectPageErrors(page, errors);
      await page.goto(`${devStack().url}/demo/age`);
      const resolved = await wallet.resolve(await startRequest(page));
      const request = resolved.authorizationRequestPayload;
      const [encryptionKey] = (request.client_metadata?.jwks as { keys: JWK[] }).keys;
      const deviceResponse = await presentTestMdoc(mdoc, {
        devicePrivateJwk: holder.privateJwk,
        disclose: { [PID_DOCTYPE]: ['age_over_18'] },
        clientId: String(request.client_id),
        nonce: String(request.nonce),
        responseUri: String(request.response_uri),
        jwkThumbprint: new Uint8Array(
          Buffer.from(await calculateJwkThumbprint(encryptionKey as JWK, 'sha256'), 'base64url'),
        ),
      });
      const { status, body } = await wallet.answer(resolved, { 'pid-mdoc': [deviceResponse] });
      expect({ status, body }).toEqual({ status: 200, body: {} });
      await page.locator('#verdict.ok').waitFor({ timeout: 30_000 });
      expect(await page.locator('#verdict').textContent()).toBe('Verified: over 18');
      expect(await page.locator('#format').textContent()).toBe('an mdoc');
      expect(await page.locator('#issuer').textContent()).toContain('issuer.example');
      expect(await page.locator('main').textContent()).not.toMatch(NOT_DISCLOSED);
      await page.screenshot({ path: join(artifacts, '4-verified-mdoc.png'), fullPage: true });
      expect(errors.filter((e) => !e.includes('Failed to load resource'))).toEqual([]);
    }, 90_000);

    it('shows "expired — try again" once the request’s expiresInSeconds have passed unanswered', async () => {
      const errors: string[] = [];
      const page = await (await (browser as Browser).newContext()).newPage();
      collectPageErrors(page, errors);
      // The page's clock (only the page's: the stack keeps real time), moved on below.
      await page.clock.install();
      await page.goto(`${devStack().url}/demo/age`);
      await startRequest(page);
      const waiting = (await page.locator('#status').textContent()) ?? '';
      const seconds = Number(/up to (\d+) s/.exec(waiting)?.[1]);
      expect(seconds).toBeGreaterThan(0);
      // As if the laptop's lid were closed until the request is over: its next poll sees it.
      await page.clock.fastForward(seconds * 1000 + 2000);
      await page.locator('#status', { hasText: 'The request expired — try again.' }).waitFor();
      expect(await page.locator('#request').isHidden()).toBe(true);
      expect(await page.locator('#start').textContent()).toBe('Try again');
      await page.screenshot({ path: join(artifacts, '5-expired.png'), fullPage: true });
      expect(errors.filter((e) => !e.includes('Failed to load resource'))).toEqual([]);
    }, 60_000);
  });
};
