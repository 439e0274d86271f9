import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { AUTH_ERRORS, DID_ERRORS } from '@itp/schemas';
import { DOCS_CSP, docsRouter } from './docs-router.js';

// The docs routes on a bare express app (as app.ts mounts them), with a stand-in JSON-RPC upstream
// that answers rpc.discover with the forwarded host it was given.

let gateway: Server;
let upstream: Server;
let base: string;
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
          servers: [
            {
              url: `${req.headers['x-forwarded-proto']}://${req.headers['x-forwarded-host']}${req.url}`,
            },
          ],
        },
      }),
    );
  });
  const upstreamUrl = await listen(upstream);
  const app = express();
  app.set('trust proxy', 'loopback');
  app.use(docsRouter({ TOKEN_RPC_URL: upstreamUrl, BLOCK_RPC_URL: upstreamUrl }));
  gateway = createServer(app);
  base = await listen(gateway);
});

afterAll(async () => {
  await new Promise((r) => gateway?.close(r));
  await new Promise((r) => upstream?.close(r));
});

describe('GET /openapi.json', () => {
  it('is OpenAPI 3.1 with an absolute server and every catalog error on some endpoint', async () => {
    const res = await fetch(`${base}/openapi.json`, {
      headers: { 'x-forwarded-host': 'api.example.test', 'x-forwarded-proto': 'https' },
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
  it('asks the upstream with the client’s host, so servers[].url is the gateway’s', async () => {
    const res = await fetch(`${base}/openrpc/erc20.json`, {
      headers: { 'x-forwarded-host': 'api.example.test', 'x-forwarded-proto': 'https' },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      openrpc: '1.2.6',
      servers: [{ url: 'https://api.example.test/token/erc20' }],
    });
    expect((await fetch(`${base}/openrpc/nope.json`)).status).toBe(404);
  });
});
