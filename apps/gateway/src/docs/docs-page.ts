import { readFileSync } from 'node:fs';

/** The OpenRPC documents the docs page links (served at /openrpc/<file>). */
export const OPENRPC_DOCUMENTS = [
  { title: 'Token API (OpenRPC, POST /token)', file: 'token.json', path: '/token' },
  {
    title: 'Token API: ERC-20 (OpenRPC, POST /token/erc20)',
    file: 'erc20.json',
    path: '/token/erc20',
  },
  { title: 'Block API (OpenRPC, POST /block)', file: 'block.json', path: '/block' },
] as const;

/**
 * The docs page: Swagger UI on /openapi.json. No inline script (the CSP allows only 'self'
 * scripts): the initialiser is /docs/init.js.
 */
export const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>API documentation</title>
<link rel="icon" href="/docs/favicon-32x32.png">
<link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
<nav style="font-family:sans-serif;padding:1em 2em;border-bottom:1px solid #ddd">
<strong>REST APIs</strong> below (<a href="/openapi.json">openapi.json</a>).
<strong>JSON-RPC APIs</strong>, every method with its params, result and examples (try them):
${OPENRPC_DOCUMENTS.map(({ title, file }) => `<a href="/docs/rpc/${file}">${title.replace(/ \(OpenRPC, /, ' (')}</a>`).join(' · ')}.
OpenRPC documents (the same answer <code>rpc.discover</code> on each endpoint):
${OPENRPC_DOCUMENTS.map(({ title, file }) => `<a href="/openrpc/${file}">${title}</a>`).join(' · ')}
</nav>
<div id="swagger-ui"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;

/** The page's initialiser: the file browser/init.js beside this module, read once at start. */
export const DOCS_INIT_SCRIPT = readFileSync(new URL('./browser/init.js', import.meta.url), 'utf8');
