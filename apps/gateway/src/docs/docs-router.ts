import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import express, { type RequestHandler, type Response, type Router } from 'express';
import { buildOpenApiDocument } from '@itp/schemas';
import { splitUpstreamUrls, type GatewayConfig } from '../config.js';
import { DOCS_PAGE, DOCS_INIT_SCRIPT, OPENRPC_DOCUMENTS } from './docs-page.js';
import { RPC_CSS, RPC_SCRIPT, renderRpcPage } from './rpc-docs-page.js';

/** The API version the documents carry. */
const DOCS_VERSION = '2.0.0';

/**
 * The CSP of the docs page: everything from the gateway itself, nothing from another host.
 * Swagger UI sets styles through the DOM and uses data: images in its CSS.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const docsCsp: RequestHandler = (_req, res, next) => {
  res.setHeader('Content-Security-Policy', DOCS_CSP);
  next();
};

/** swagger-ui-dist's own files (a package kept external in the image: see tools/build). */
function swaggerUiDir(): string {
  return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
}

/** The files of swagger-ui-dist the page loads, nothing else of the package. */
const SWAGGER_FILES = ['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png'];

type DocsConfig = Pick<GatewayConfig, 'TOKEN_RPC_URL' | 'BLOCK_RPC_URL' | 'PUBLIC_URL'>;

/**
 * API documents, served by the gateway itself (never forwarded):
 * - `GET /openapi.json`: OpenAPI 3.1 of /v2/auth and /v2/did, built from @itp/schemas;
 * - `GET /docs`: Swagger UI (swagger-ui-dist, every asset from here) rendering it, with links to
 * - `GET /openrpc/{token,erc20,block}.json`: the upstreams' `rpc.discover` answers.
 * Server URLs come from PUBLIC_URL (the upstreams have the same setting), never from the
 * request's Host: unset, they are relative (`/`, `/token`).
 */
export function docsRouter(config: DocsConfig): Router {
  const router = express.Router();
  const links = OPENRPC_DOCUMENTS.map(({ title, file }) => ({ title, url: `/openrpc/${file}` }));

  const base = config.PUBLIC_URL ?? '';
  const openApiJson = JSON.stringify(
    buildOpenApiDocument({
      version: DOCS_VERSION,
      serverUrl: base || '/',
      links: links.map(({ title, url }) => ({ title, url: `${base}${url}` })),
    }),
  );
  router.get('/openapi.json', (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.type('application/json').send(openApiJson);
  });

  router.get(['/docs', '/docs/'], docsCsp, (_req, res) => {
    res.type('html').send(DOCS_PAGE);
  });
  router.get('/docs/init.js', docsCsp, (_req, res) => {
    res.type('text/javascript').send(DOCS_INIT_SCRIPT);
  });
  const assets = swaggerUiDir();
  for (const file of SWAGGER_FILES) {
    router.get(`/docs/${file}`, docsCsp, (_req, res, next) => {
      res.sendFile(join(assets, file), { maxAge: '1h' }, (err) => err && next(err));
    });
  }

  const upstreams: Record<string, { base: string; path: string }> = {};
  for (const { file, path } of OPENRPC_DOCUMENTS) {
    const setting = path === '/block' ? config.BLOCK_RPC_URL : config.TOKEN_RPC_URL;
    upstreams[file] = { base: splitUpstreamUrls(setting)[0] ?? '', path };
  }
  /** The upstream's rpc.discover answer for one of OPENRPC_DOCUMENTS. */
  const discover = async (file: string): Promise<Record<string, unknown> | undefined> => {
    const target = upstreams[file];
    if (!target) return undefined;
    const answer = await fetch(`${target.base.replace(/\/+$/, '')}${target.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc":"2.0","id":1,"method":"rpc.discover"}',
      signal: AbortSignal.timeout(10_000),
    });
    const body = (await answer.json()) as { result?: Record<string, unknown> };
    if (!body.result) throw new Error('no result');
    return body.result;
  };
  const upstreamDown = (res: Response) =>
    res.status(502).json({ error: { code: '502', message: 'The upstream did not answer' } });

  router.get('/openrpc/:file', async (req, res, next) => {
    try {
      const doc = await discover(req.params.file);
      if (!doc) return next();
      res.setHeader('Cache-Control', 'no-cache');
      res.json(doc);
    } catch {
      upstreamDown(res);
    }
  });

  // The JSON-RPC APIs for people: a page per document, with "Try it" per example.
  router.get('/docs/rpc.js', docsCsp, (_req, res) => {
    res.type('text/javascript').send(RPC_SCRIPT);
  });
  router.get('/docs/rpc.css', docsCsp, (_req, res) => {
    res.type('text/css').send(RPC_CSS);
  });
  router.get('/docs/rpc/:file', docsCsp, async (req, res, next) => {
    const entry = OPENRPC_DOCUMENTS.find((d) => d.file === req.params.file);
    if (!entry) return next();
    try {
      const doc = await discover(entry.file);
      if (!doc) return next();
      res.setHeader('Cache-Control', 'no-cache');
      res
        .type('html')
        .send(renderRpcPage(doc, { endpoint: entry.path, file: entry.file, title: entry.title }));
    } catch {
      upstreamDown(res);
    }
  });
  return router;
}
