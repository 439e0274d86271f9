/**
 * /docs in a real browser (Debian's chromium driven by playwright-core): the gateway app built by
 * its app.ts in process, in front of a real token-rpc and block-rpc (what the OpenRPC links ask);
 * auth-service and did-service are not needed, the OpenAPI document is the gateway's own.
 * Swagger UI must render every REST operation with the recorded examples, load nothing from
 * another host (every such request is recorded and refused), and link to OpenRPC documents of
 * /token, /token/erc20 and /block that answer. A screenshot is kept under test-artifacts/docs/.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { freePort } from '@itp/dev-chain';
import { REST_ENDPOINTS } from '@itp/schemas';
import { launchChromium } from '@itp/testing/chromium';
import { waitFor } from '@itp/testing/wait-for';
import { startGateway, type RunningGateway } from '@itp/gateway/testing';
import { startRpcUpstreams, type RpcUpstreams } from './rpc-upstreams.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const artifacts = join(repoRoot, 'test-artifacts', 'docs');
/** A closed port: the docs never reach auth-service or did-service. */
const NOWHERE = 'http://127.0.0.1:9';

let upstreams: RpcUpstreams | undefined;
let gateway: RunningGateway;
let browser: Browser;
let context: BrowserContext;
/** Every request the page made to a host other than the gateway's (refused). */
const foreign: string[] = [];
/** Console errors (CSP violations among them) and page errors. */
const errors: string[] = [];

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  // The documents name PUBLIC_URL (the gateway's address) as their server: chosen up front.
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  [upstreams, browser] = await Promise.all([
    startRpcUpstreams('docs', { PUBLIC_URL: publicUrl }),
    launchChromium('the /docs browser test'),
  ]);
  gateway = await startGateway({
    PORT: String(port),
    PUBLIC_URL: publicUrl,
    AUTH_SERVICE_URL: NOWHERE,
    DID_SERVICE_URL: NOWHERE,
    TOKEN_RPC_URL: upstreams.token.url,
    BLOCK_RPC_URL: upstreams.block.url,
  });
  context = await browser.newContext();
  const host = new URL(gateway.url).host;
  await context.route('**/*', async (route) => {
    const url = new URL(route.request().url());
    if (url.host === host) return route.continue();
    foreign.push(url.href);
    return route.abort('blockedbyclient');
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await gateway?.close();
  await upstreams?.close();
}, 30_000);

/** The text `read` gives once it contains `expected` (or what it gave after 10 s). */
async function textWhen(read: () => Promise<string | null>, expected: string): Promise<string> {
  let text = '';
  await waitFor(async () => (text = (await read()) ?? '').includes(expected), {
    what: `a text containing ${expected}`,
    timeoutMs: 10_000,
    intervalMs: 25,
  }).catch(() => undefined); // the caller's expect shows the text
  return text;
}

function watch(page: Page): Page {
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`${page.url()}: ${msg.text()}`);
  });
  page.on('pageerror', (err) => errors.push(`${page.url()}: ${err.message}`));
  return page;
}

describe('/docs in a browser (chromium)', () => {
  it('renders every REST operation with recorded examples, from the gateway alone', async () => {
    const page = watch(await context.newPage());
    await page.goto(`${gateway.url}/docs`);
    await page.locator('.swagger-ui .information-container .title').waitFor();
    await page.locator('.opblock').first().waitFor();

    const operations = await page
      .locator('.opblock')
      .evaluateAll((blocks) =>
        blocks.map(
          (b) =>
            `${b.querySelector('.opblock-summary-method')?.textContent?.toLowerCase()} ` +
            `${b.querySelector('.opblock-summary-path')?.getAttribute('data-path')}`,
        ),
      );
    expect(operations.sort()).toEqual(REST_ENDPOINTS.map((e) => `${e.method} ${e.path}`).sort());

    // One operation opened: its 200 example is the recorded answer (the dev demo user).
    const login = page.locator('.opblock', {
      has: page.locator('.opblock-summary-path[data-path="/v2/auth/auth-user"]'),
    });
    await login.locator('.opblock-summary').click();
    const responses = login.locator('.responses-wrapper');
    await responses.waitFor();
    await expect(responses.textContent()).resolves.toContain('"userId": "demo"');
    await page.screenshot({ path: join(artifacts, 'docs.png'), fullPage: false });

    expect(foreign).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);

  it('links the OpenRPC documents of /token, /token/erc20 and /block, which answer', async () => {
    const page = watch(await context.newPage());
    await page.goto(`${gateway.url}/docs`);
    const hrefs = (selector: string) =>
      page.locator(selector).evaluateAll((anchors) => anchors.map((a) => a.getAttribute('href')));
    const links = (await hrefs('nav a[href^="/openrpc/"]')).map(
      (href) => new URL(href ?? '', gateway.url).href,
    );
    expect(links).toEqual(
      ['token', 'erc20', 'block'].map((name) => `${gateway.url}/openrpc/${name}.json`),
    );
    // The OpenAPI document's description links them too (absolute, for readers of the JSON).
    await page.locator('.swagger-ui .information-container a[href*="/openrpc/"]').first().waitFor();
    expect(await hrefs('.swagger-ui .information-container a[href*="/openrpc/"]')).toEqual(links);
    const served: Array<{ link: string; server?: string; withExamples: boolean }> = [];
    for (const link of links) {
      const answer = await page.goto(link);
      const doc = (await answer?.json()) as {
        openrpc: string;
        servers: Array<{ url: string }>;
        methods: Array<{ examples?: unknown[] }>;
      };
      expect({ link, status: answer?.status(), openrpc: doc.openrpc }).toEqual({
        link,
        status: 200,
        openrpc: '1.2.6',
      });
      served.push({
        link,
        server: doc.servers[0]?.url,
        withExamples: doc.methods.length > 0 && doc.methods.every((m) => m.examples?.length),
      });
    }
    expect(served).toEqual(
      [
        ['token', '/token'],
        ['erc20', '/token/erc20'],
        ['block', '/block'],
      ].map(([name, path]) => ({
        link: `${gateway.url}/openrpc/${name}.json`,
        server: `${gateway.url}${path}`,
        withExamples: true,
      })),
    );
    expect(foreign).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);

  it('renders the JSON-RPC APIs for people, and their "Try it" examples answer from the live services', async () => {
    const page = watch(await context.newPage());
    await page.goto(`${gateway.url}/docs`);
    const human = await page
      .locator('nav a[href^="/docs/rpc/"]')
      .evaluateAll((anchors) => anchors.map((a) => a.getAttribute('href')));
    expect(human).toEqual(['/docs/rpc/token.json', '/docs/rpc/erc20.json', '/docs/rpc/block.json']);
    await page.goto(`${gateway.url}/docs/rpc/block.json`);
    await page.locator('#getBlockNumber').waitFor();
    const sections = await page.locator('section h2 code').allTextContents();
    expect(sections).toEqual(
      expect.arrayContaining(['getBlock', 'getBlockNumber', 'getTransactionStats']),
    );
    // Try the getBlockNumber example: the page posts it to /block and shows the answer.
    const example = page.locator('#getBlockNumber button.try').first();
    await example.click();
    const answer = page.locator('#getBlockNumber pre.answer').first();
    expect(await textWhen(() => answer.textContent(), '"resultCode": "200"')).toContain(
      '"resultCode": "200"',
    );
    await page.goto(`${gateway.url}/docs/rpc/token.json`);
    await page.locator('#createAddress button.try').first().click();
    const created = page.locator('#createAddress pre.answer').first();
    expect(await textWhen(() => created.textContent(), '"secretKey"')).toContain('"secretKey"');
    expect(foreign).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);
});
