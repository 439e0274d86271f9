// @ts-check
/**
 * What the demo pages' scripts share: one call of this gateway's JSON API (`api`) and the poll of
 * a request's outcome (`pollUntilDone`). An ES module (ES2017, no build step), served as
 * /demo/demo-api.js (demo-router.ts) and loaded by each page's classic script with
 * `import('./demo-api.js')`: same origin, admitted by the pages' CSP (`script-src 'self'`), no
 * second `<script>` on a page. Checked by tsconfig.browser.json (`npm run typecheck`) and eslint
 * (browser globals).
 */

/** The shortest pause between two polls (the services' slow_down asks for more, never less). */
export var POLL_MS = 1500;

/** @typedef {Error & { code?: string, status?: number }} ApiError */

/**
 * A call of this gateway's JSON API (a REST endpoint, /token, or the demo site's server): the
 * JSON answer, or an ApiError with the answer's `error.code` (else the HTTP status) and message.
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @param {string} [token] a bearer token
 * @returns {Promise<any>}
 */
export function api(method, path, body, token) {
  /** @type {Record<string, string>} */
  var headers = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = 'Bearer ' + token;
  return fetch(path, {
    method: method,
    headers: headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  }).then(function (res) {
    return res.text().then(function (text) {
      /** @type {any} */
      var json = null;
      try {
        json = text ? JSON.parse(text) : {};
      } catch (e) {
        json = null;
      }
      if (res.ok && json !== null) return json;
      var error = json && json.error;
      /** @type {ApiError} */
      var failure = new Error((error && error.message) || 'HTTP ' + res.status + ' from ' + path);
      failure.code = error && typeof error.code === 'string' ? error.code : String(res.status);
      failure.status = res.status;
      throw failure;
    });
  });
}

/**
 * Polls the outcome of a request: `POST path { requestId }`, first after POLL_MS, again while the
 * answer is `pending` (at least POLL_MS apart, longer when it says `retryAfterSeconds`), until
 * another state comes (`done`) or a call fails (`failed`). With a `deadline` (Date.now() after
 * which the request has expired), no poll is made after it: `expired` instead.
 * @template {{ status: string, retryAfterSeconds?: number }} S
 * @param {string} path
 * @param {string} requestId
 * @param {{
 *   done: (state: S) => void,
 *   failed: (err: ApiError) => void,
 *   deadline?: number,
 *   expired?: () => void,
 * }} on
 */
export function pollUntilDone(path, requestId, on) {
  var poll = function () {
    if (on.deadline !== undefined && Date.now() >= on.deadline) {
      if (on.expired) on.expired();
      return;
    }
    api('POST', path, { requestId: requestId })
      .then(
        /** @param {S} state */
        function (state) {
          if (state.status !== 'pending') {
            on.done(state);
            return;
          }
          var wait = state.retryAfterSeconds ? state.retryAfterSeconds * 1000 : POLL_MS;
          setTimeout(poll, Math.max(wait, POLL_MS));
        },
      )
      .catch(on.failed);
  };
  setTimeout(poll, POLL_MS);
}
