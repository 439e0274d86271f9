import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import express from 'express';
import { DOCS_CSP, docsRouter } from '../docs-router.js';

/**
 * The docs pages' own scripts are the files beside this spec (init.js, rpc.js), served as they
 * are (same origin, JavaScript's content type) and admitted by the pages' CSP, which admits no
 * inline script and no other origin. The docs routes on a bare express app (as app.ts mounts
 * them), with a stand-in JSON-RPC upstream answering rpc.discover.
 */
const PAGES = [
  { page: '/docs', file: 'init.js' },
  { page: '/docs/rpc/token.json', file: 'rpc.js' },
] as const;

/** The sources of a CSP directive (`script-src 'self'` → `["'self'"]`). */
function directive(csp: string, name: string): string[] | undefined {
  const found = csp
    .split(';')
    .map((part) => part.trim().split(/\s+/))
    .find(([directiveName]) => directiveName === name);
  return found?.slice(1);
}

const listen = (server: Server) =>
  new Promise<string>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );

describe('/docs scripts (gateway)', () => {
  let upstream: Server;
  let gateway: Server;
  let base: string;
  beforeAll(async () => {
    upstream = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          result: {
            openrpc: '1.2.6',
            info: { title: 'T', version: '1' },
            methods: [
              {
                name: 'getBalance',
                params: [],
                result: { name: 'r', schema: { type: 'string' } },
                examples: [{ name: 'one', params: [], result: { name: 'r', value: '1' } }],
              },
            ],
          },
        }),
      );
    });
    const upstreamUrl = await listen(upstream);
    const app = express();
    app.use(docsRouter({ TOKEN_RPC_URL: upstreamUrl, BLOCK_RPC_URL: upstreamUrl }));
    gateway = createServer(app);
    base = await listen(gateway);
  });
  afterAll(async () => {
    await new Promise((resolve) => gateway?.close(resolve));
    await new Promise((resolve) => upstream?.close(resolve));
  });

  it.each(PAGES)(
    "$page runs browser/$file: served same-origin as text/javascript, admitted by the page's CSP",
    async ({ page, file }) => {
      const res = await fetch(`${base}${page}`);
      expect(res.status).toBe(200);
      const html = await res.text();
      // Scripts by URL only, no inline code; this file's among them.
      const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
      expect(scripts.length).toBeGreaterThan(0);
      for (const [, , code] of scripts) expect(code).toBe('');
      const srcs = scripts.map(([, attributes]) => /\ssrc="([^"]+)"/.exec(attributes ?? '')?.[1]);
      expect(srcs).toContain(`/docs/${file}`);
      const scriptUrl = new URL(`/docs/${file}`, `${base}${page}`);
      expect(scriptUrl.origin).toBe(new URL(base).origin);

      // The CSP admits the page's own origin only ('self': the script above), nothing inline.
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toBe(DOCS_CSP);
      expect(directive(csp, 'script-src')).toEqual(["'self'"]);

      const script = await fetch(scriptUrl);
      expect(script.status).toBe(200);
      expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect(await script.text()).toBe(readFileSync(new URL(`./${file}`, import.meta.url), 'utf8'));
    },
  );
});
