// @ts-check
/**
 * The demo web site's script (demo-pages.ts DEMO_SITE_PAGE), served as /demo/site.js
 * (demo-router.ts, read once when the router is made). A classic script (ES2017, no
 * build step; what the pages share it imports, demo-api.js) that talks only to this gateway; checked by tsconfig.browser.json
 * (`npm run typecheck`) and eslint (browser globals).
 *
 * Its own server route starts the login request (the client secret never reaches the browser),
 * the page shows the requestId's QR code (and, when the answer has one, the request's OpenID4VP
 * QR code and link for any wallet) and polls the site's server for the result, at least 1.5 s
 * apart and longer when auth-service says `slow_down`: whichever code is used, the same poll sees
 * the approval.
 */
'use strict';

/**
 * The page's elements by id.
 * @typedef {{
 *   start: HTMLButtonElement,
 *   request: HTMLElement,
 *   qr: HTMLImageElement,
 *   'request-id': HTMLElement,
 *   oid4vp: HTMLElement,
 *   'oid4vp-qr': HTMLImageElement,
 *   'oid4vp-uri': HTMLAnchorElement,
 *   'oid4vp-uri-text': HTMLElement,
 *   status: HTMLElement,
 *   user: HTMLElement,
 *   'user-name': HTMLElement,
 *   'user-id': HTMLElement,
 *   'user-email': HTMLElement,
 * }} SiteElements
 */

/**
 * `POST /demo/api/login-request`.
 * @typedef {{
 *   requestId: string,
 *   waitTime: number,
 *   qr: string,
 *   openid4vpUri?: string,
 *   openid4vpQr?: string,
 * }} LoginRequest
 */

/**
 * `POST /demo/api/login-result`.
 * @typedef {{ status: 'pending', retryAfterSeconds?: number }
 *   | { status: 'approved', user: { userId: string, name: string, email: string } }
 *   | { status: 'expired', message: string }} LoginResult
 */

(function () {
  /** What the demo pages share (demo-api.js): their API call and the poll of an outcome. */
  var shared = import('./demo-api.js');
  /**
   * @template {keyof SiteElements} K
   * @param {K} id
   * @returns {SiteElements[K]}
   */
  var $ = function (id) {
    return /** @type {SiteElements[K]} */ (document.getElementById(id));
  };
  /**
   * @param {string} text
   * @param {string} [kind]
   */
  var status = function (text, kind) {
    $('status').textContent = text;
    $('status').className = kind || '';
  };
  /** @param {LoginResult} state the outcome (not pending) */
  var show = function (state) {
    if (state.status === 'approved') {
      $('request').hidden = true;
      $('user-name').textContent = state.user.name;
      $('user-id').textContent = state.user.userId;
      $('user-email').textContent = state.user.email;
      $('user').hidden = false;
      $('start').disabled = false;
      status('Logged in.', 'ok');
    } else if (state.status === 'expired') {
      $('request').hidden = true;
      $('start').disabled = false;
      status('The login request ended (' + state.message + '). Start again.', 'error');
    }
  };
  $('start').addEventListener('click', function () {
    $('start').disabled = true;
    $('user').hidden = true;
    status('Starting a login request…');
    shared
      .then(function (demo) {
        return demo.api('POST', '/demo/api/login-request', {}).then(
          /** @param {LoginRequest} request */
          function (request) {
            $('qr').src = request.qr;
            $('request-id').textContent = request.requestId;
            if (request.openid4vpUri && request.openid4vpQr) {
              $('oid4vp-qr').src = request.openid4vpQr;
              $('oid4vp-uri').href = request.openid4vpUri;
              $('oid4vp-uri-text').textContent = request.openid4vpUri;
              $('oid4vp').hidden = false;
            } else {
              $('oid4vp').hidden = true;
            }
            $('request').hidden = false;
            status(
              'Waiting for the phone app' +
                (request.openid4vpUri ? ' or a wallet' : '') +
                ' (up to ' +
                request.waitTime +
                ' s)…',
            );
            demo.pollUntilDone('/demo/api/login-result', request.requestId, {
              done: show,
              failed: function (err) {
                $('start').disabled = false;
                status('Polling failed: ' + err.message, 'error');
              },
            });
          },
        );
      })
      .catch(
        /** @param {Error} err */
        function (err) {
          $('start').disabled = false;
          status('Could not start: ' + err.message, 'error');
        },
      );
  });
})();
