import express, { type Router } from 'express';
import type { GatewayConfig } from '../config.js';
import { OPENRPC_DOCUMENTS } from '../docs/docs-page.js';

const APIS = [
  {
    path: '/v2/auth',
    kind: 'REST',
    what: 'authentication: password, VP, Sign-In with Ethereum and web-site (QR) login',
  },
  { path: '/v2/did', kind: 'REST', what: 'DIDs, verifiable credentials and presentations' },
  { path: '/token', kind: 'JSON-RPC 2.0', what: 'server wallet, temp keys, signing, transfers' },
  { path: '/token/erc20', kind: 'JSON-RPC 2.0', what: 'ERC-20 calls against any token' },
  { path: '/block', kind: 'JSON-RPC 2.0', what: 'blocks, transactions, receipts, daily stats' },
] as const;

/** What `GET /` answers outside development: where everything is, as JSON. */
export function landingIndex(): Record<string, unknown> {
  return {
    name: 'Identity and token platform',
    apis: APIS.map(({ path, kind, what }) => ({ path, kind, what })),
    docs: {
      html: '/docs',
      openapi: '/openapi.json',
      openrpc: OPENRPC_DOCUMENTS.map(({ file, path }) => ({ path, document: `/openrpc/${file}` })),
    },
    health: { live: '/health/live', ready: '/health/ready' },
  };
}

/** The landing page loads nothing but the favicon; its one inline style is allowed by hash-free CSP. */
export const LANDING_CSP =
  "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** What `GET /` answers in development: a small page with every link a newcomer needs. */
export const LANDING_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Identity and token platform (development)</title>
<link rel="icon" href="/docs/favicon-32x32.png">
<style>body{font-family:system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem;line-height:1.5}code{background:#f3f3f3;padding:0 .2em}td{padding:.2em .8em .2em 0;vertical-align:top}</style>
</head>
<body>
<h1>Identity and token platform</h1>
<p>The dev stack of <code>npm start</code> is running (<code>APP_ENV=development</code>).</p>
<ul>
<li><a href="/docs">API documentation</a>: the REST APIs (try them out) and the JSON-RPC APIs</li>
<li><a href="/demo">QR login demo</a>: a web site and a phone app side by side; demo user
<code>demo</code> / <code>demo-password</code>, demo site client <code>demo-site</code> /
<code>demo-site-secret</code></li>
<li><a href="/health/ready">Health</a> of every service (<a href="/health/live">live</a>)</li>
</ul>
<table>
${APIS.map(({ path, kind, what }) => `<tr><td><code>${path}</code></td><td>${kind}</td><td>${what}</td></tr>`).join('\n')}
</table>
</body>
</html>
`;

/**
 * `GET /`: in development a small landing page (links to /docs, /demo, health, the demo login);
 * in every other mode a JSON index of the same (an API gateway answers JSON to machines).
 */
export function landingRouter(config: Pick<GatewayConfig, 'APP_ENV'>): Router {
  const router = express.Router();
  router.get('/', (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    if (config.APP_ENV === 'development') {
      res.setHeader('Content-Security-Policy', LANDING_CSP);
      res.type('html').send(LANDING_PAGE);
      return;
    }
    res.json(landingIndex());
  });
  return router;
}
