// @ts-check
/**
 * The JSON-RPC pages' "Try it" buttons (rpc-docs-page.ts renderRpcPage), served as /docs/rpc.js
 * (docs-router.ts; read once at start): POST the example to the endpoint of the page
 * (`<body data-endpoint>`), show the answer. A classic script, no build step; checked by
 * tsconfig.browser.json (`npm run typecheck`) and eslint (browser globals).
 */
'use strict';

document.addEventListener('click', async (event) => {
  const target = /** @type {Element | null} */ (event.target);
  const button = /** @type {HTMLButtonElement | null} */ (target && target.closest('button.try'));
  if (!button) return;
  const source = document.getElementById(button.dataset.request || '');
  const answer = document.getElementById(button.dataset.answer || '');
  const endpoint = document.body.dataset.endpoint;
  if (!source || !answer || !endpoint) return;
  const request = source.textContent;
  answer.hidden = false;
  answer.textContent = '…';
  try {
    const res = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: request,
    });
    const text = await res.text();
    try {
      answer.textContent = JSON.stringify(JSON.parse(text), null, 2);
    } catch {
      answer.textContent = 'HTTP ' + res.status + ' ' + text;
    }
  } catch (err) {
    answer.textContent = String(err);
  }
});
