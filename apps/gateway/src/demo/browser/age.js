// @ts-check
/**
 * The demo "verify your age" page's script (demo-pages.ts DEMO_AGE_PAGE), served as /demo/age.js
 * (demo-router.ts, read once when the router is made). A classic script (ES2017, no
 * build step; what the pages share it imports, demo-api.js) that talks only to this gateway; checked by tsconfig.browser.json
 * (`npm run typecheck`) and eslint (browser globals).
 *
 * Its own server route starts the presentation request (the client secret never reaches the
 * browser); the page shows the request's `openid4vp://` URI as a QR code and as a link (the
 * section's `data-openid4vp-uri` holds it too), then polls the site's server for the outcome, at
 * least 1.5 s apart and longer when auth-service says `slow_down`, until the request's
 * `expiresInSeconds` have passed. It shows the verdict, the issuer and what the site learned; the
 * button then offers a new request.
 */
'use strict';

/**
 * The page's elements by id.
 * @typedef {{
 *   start: HTMLButtonElement,
 *   request: HTMLElement,
 *   qr: HTMLImageElement,
 *   'oid4vp-uri': HTMLAnchorElement,
 *   'oid4vp-uri-text': HTMLElement,
 *   status: HTMLElement,
 *   result: HTMLElement,
 *   verdict: HTMLElement,
 *   'issuer-line': HTMLElement,
 *   issuer: HTMLElement,
 *   format: HTMLElement,
 *   learned: HTMLElement,
 * }} AgeElements
 */

/**
 * `POST /demo/api/age-request`.
 * @typedef {{ requestId: string, openid4vpUri: string, expiresInSeconds: number, qr: string }}
 *   AgeRequest
 */

/**
 * `POST /demo/api/age-result`.
 * @typedef {{ status: 'pending', retryAfterSeconds?: number }
 *   | { status: 'verified', issuer: string, format: string }
 *   | { status: 'not-verified', reason: string }
 *   | { status: 'expired', message: string }} AgeResult
 */

(function () {
  /** What the demo pages share (demo-api.js): their API call and the poll of an outcome. */
  var shared = import('./demo-api.js');
  var FORMATS = /** @type {Record<string, string>} */ ({
    'dc+sd-jwt': 'an SD-JWT VC',
    mso_mdoc: 'an mdoc',
  });
  /**
   * @template {keyof AgeElements} K
   * @param {K} id
   * @returns {AgeElements[K]}
   */
  var $ = function (id) {
    return /** @type {AgeElements[K]} */ (document.getElementById(id));
  };
  /**
   * @param {string} text
   * @param {string} [kind]
   */
  var status = function (text, kind) {
    $('status').textContent = text;
    $('status').className = kind || '';
  };
  /** The request is over: its code goes, the button offers a new one. */
  var done = function () {
    $('request').hidden = true;
    $('request').removeAttribute('data-openid4vp-uri');
    $('start').textContent = 'Try again';
    $('start').disabled = false;
  };
  /**
   * @param {string} verdict
   * @param {string} kind
   * @param {string} learned
   */
  var outcome = function (verdict, kind, learned) {
    done();
    $('verdict').textContent = verdict;
    $('verdict').className = kind;
    $('learned').textContent = learned;
    $('result').hidden = false;
    status('');
  };
  var expired = function () {
    done();
    status('The request expired — try again.', 'error');
  };
  /** @param {AgeResult} state the outcome (not pending) */
  var show = function (state) {
    if (state.status === 'verified') {
      $('issuer').textContent = state.issuer;
      $('format').textContent = FORMATS[state.format] || state.format;
      $('issuer-line').hidden = false;
      outcome(
        'Verified: over 18',
        'ok',
        'What this site learned: age_over_18 is true, who issued the PID and that the ' +
          'platform checked it (signature, certificate chain, yours and meant for this ' +
          'request, not expired, not revoked). Nothing else: not your name, not your birth date.',
      );
    } else if (state.status === 'not-verified') {
      $('issuer-line').hidden = true;
      outcome(
        'Not verified: ' + state.reason,
        'error',
        'What this site learned: that you are not verified as over 18, and why. No claim.',
      );
    } else {
      expired();
    }
  };
  $('start').addEventListener('click', function () {
    $('start').disabled = true;
    $('result').hidden = true;
    $('request').hidden = true;
    status('Creating a presentation request…');
    shared
      .then(function (demo) {
        return demo.api('POST', '/demo/api/age-request', {}).then(
          /** @param {AgeRequest} request */
          function (request) {
            var deadline = Date.now() + request.expiresInSeconds * 1000;
            $('qr').src = request.qr;
            $('oid4vp-uri').href = request.openid4vpUri;
            $('oid4vp-uri-text').textContent = request.openid4vpUri;
            $('request').setAttribute('data-openid4vp-uri', request.openid4vpUri);
            $('request').hidden = false;
            status('Waiting for your wallet (up to ' + request.expiresInSeconds + ' s)…');
            demo.pollUntilDone('/demo/api/age-result', request.requestId, {
              deadline: deadline,
              expired: expired,
              done: show,
              failed: function (err) {
                done();
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
