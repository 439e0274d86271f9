// @ts-check
/**
 * The docs page's initialiser (docs-page.ts DOCS_PAGE), served as /docs/init.js (docs-router.ts;
 * read once at start): Swagger UI (/docs/swagger-ui-bundle.js, loaded before it) on
 * /openapi.json. A classic script, no build step; checked by tsconfig.browser.json
 * (`npm run typecheck`) and eslint (browser globals).
 */
'use strict';

/**
 * The page's globals: swagger-ui-bundle.js's SwaggerUIBundle, and the UI it makes (`window.ui`,
 * for the console).
 * @typedef {{ SwaggerUIBundle: (options: Record<string, unknown>) => unknown, ui?: unknown }}
 *   SwaggerWindow
 */

(function () {
  const page = /** @type {SwaggerWindow} */ (/** @type {unknown} */ (window));
  page.ui = page.SwaggerUIBundle({
    url: '/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
  });
})();
