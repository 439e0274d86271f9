import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { AUTH_ERRORS, DID_ERRORS } from '@itp/schemas';
import { DOCS_CSP, docsRouter } from './docs-router.js';

// The docs routes on bare express apps (as app.ts mounts them), with a stand-in JSON-RPC upstream
// that answers rpc.discover and records the headers it was asked with. The server URL of every
// document is PUBLIC_URL's, never the Host / X-Forwarded-Host a client sends.

let gateway: Server;
let relativeGateway: Server;
let upstream: Server;
let base: string;
let relativeBase: string;
const seen: Array<Record<string, unknown>> = [];

const listen = (server: Server) =>
  new Promise<string>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );

beforeAll(async () => {
  upstream = createServer((req, res) => {
    seen.push({ url: req.url, host: req.headers['x-forwarded-host'] });
    res.setHeader('content-type', 'application/json');
    res.end(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        result: {
          openrpc: '1.2.6',
          servers: [{ url: `https://api.example.test${req.url}` }],
          info: { title: 'T', version: '1', description: 'The <b>token</b> API' },
          methods: [
            {
              name: 'getBalance',
              summary: 'Balance <script>alert(1)</script>',
              paramStructure: 'by-name',
              params: [
                {
                  name: 'address',
                  required: true,
                  schema: { type: 'string', pattern: '^0x[0-9a-fA-F]{40}$' },
                },
              ],
              result: {
                name: 'r',
                schema: {
                  type: 'object',
                  properties: { resultCode: { const: '200' } },
                  required: ['resultCode'],
                },
              },
              examples: [
                {
                  name: 'a balance',
                  params: [
                    { name: 'address', value: '0x0000000000000000000000000000000000000001' },
                  ],
                  result: { name: 'r', value: { resultCode: '200' } },
                },
              ],
            },
          ],
        },
      }),
    );
  });
  const upstreamUrl = await listen(upstream);
  const app = express();
  app.set('trust proxy', 'loopback');
  app.use(
    docsRouter({
      TOKEN_RPC_URL: upstreamUrl,
      BLOCK_RPC_URL: upstreamUrl,
      PUBLIC_URL: 'https://api.example.test',
    }),
  );
  gateway = createServer(app);
  base = await listen(gateway);
  const relative = express();
  relative.use(docsRouter({ TOKEN_RPC_URL: upstreamUrl, BLOCK_RPC_URL: upstreamUrl }));
  relativeGateway = createServer(relative);
  relativeBase = await listen(relativeGateway);
});

afterAll(async () => {
  await new Promise((r) => gateway?.close(r));
  await new Promise((r) => relativeGateway?.close(r));
  await new Promise((r) => upstream?.close(r));
});

describe('GET /openapi.json', () => {
  it('is OpenAPI 3.1 with PUBLIC_URL as server and every catalog error on some endpoint', async () => {
    // A forged Host / X-Forwarded-Host (even from a trusted peer) does not become the server.
    const res = await fetch(`${base}/openapi.json`, {
      headers: { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http' },
    });
    expect(res.status).toBe(200);
    const doc = (await res.json()) as {
      openapi: string;
      servers: Array<{ url: string }>;
      paths: Record<string, Record<string, { responses: Record<string, { description: string }> }>>;
    };
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers[0]?.url).toBe('https://api.example.test');
    const described = JSON.stringify(doc.paths);
    for (const [key, error] of [...Object.entries(AUTH_ERRORS), ...Object.entries(DID_ERRORS)]) {
      if (key === 'noRoute') continue; // any unknown path, not an endpoint's
      expect({ key, listed: described.includes(JSON.stringify(error.when).slice(1, -1)) }).toEqual({
        key,
        listed: true,
      });
    }
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/v2/auth/auth-user', '/v2/did/create-vc', '/v2/did/issuers']),
    );
    expect(
      Object.keys(doc.paths['/v2/auth/auth-user-result-by-app']?.['post']?.responses ?? {}),
    ).toEqual(['200', '400', '401', '403', '413', '415', '429', '500', '503']);
    expect(JSON.stringify(doc)).not.toContain('evil.example');
  });

  it('without PUBLIC_URL names a relative server, never the Host header', async () => {
    const res = await fetch(`${relativeBase}/openapi.json`, {
      headers: { 'x-forwarded-host': 'evil.example' },
    });
    const doc = (await res.json()) as { servers: Array<{ url: string }> };
    expect(doc.servers).toEqual([expect.objectContaining({ url: '/' })]);
    expect(JSON.stringify(doc)).not.toMatch(/evil\.example|127\.0\.0\.1/);
  });
});

describe('GET /docs', () => {
  it('is Swagger UI with every asset served here and a CSP that allows only this origin', async () => {
    const res = await fetch(`${base}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toBe(DOCS_CSP);
    const html = await res.text();
    const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] as string);
    expect(refs.length).toBeGreaterThan(4);
    for (const ref of refs) {
      expect(ref.startsWith('/')).toBe(true);
      const asset = await fetch(`${base}${ref.split('#')[0]}`);
      expect({ ref, status: asset.status }).toEqual({ ref, status: 200 });
      await asset.arrayBuffer();
    }
    const init = await (await fetch(`${base}/docs/init.js`)).text();
    expect(init).toContain("url: '/openapi.json'");
    expect(init).toContain('validatorUrl: null');
  });
});

describe('GET /openrpc/<api>.json', () => {
  it('passes on the upstream’s document, never handing it the client’s Host', async () => {
    seen.length = 0;
    const res = await fetch(`${base}/openrpc/erc20.json`, {
      headers: { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http' },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      openrpc: '1.2.6',
      servers: [{ url: 'https://api.example.test/token/erc20' }],
    });
    expect(seen).toEqual([{ url: '/token/erc20', host: undefined }]);
    expect((await fetch(`${base}/openrpc/nope.json`)).status).toBe(404);
  });
});

describe('GET /docs/rpc/<api>.json (the JSON-RPC APIs for people)', () => {
  it('renders every method with params, result and an example to try, all text escaped', async () => {
    const res = await fetch(`${base}/docs/rpc/token.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toBe(DOCS_CSP);
    const html = await res.text();
    expect(html).toContain('<h2><code>getBalance</code></h2>');
    expect(html).toContain('address</code></td><td><code>string /^0x[0-9a-fA-F]{40}$/</code>');
    expect(html).toContain('{ resultCode: &#34;200&#34; }');
    expect(html).toContain('&#34;method&#34;: &#34;getBalance&#34;');
    expect(html).toContain('data-endpoint="/token"');
    expect(html).toContain('<button type="button" class="try"');
    // Text from the document never becomes markup.
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
    expect(html).not.toContain('<b>token</b>');
    expect((await fetch(`${base}/docs/rpc/nope.json`)).status).toBe(404);
    const script = await fetch(`${base}/docs/rpc.js`);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
  });
});
