// @ts-check
/**
 * The login page's script (oidc-pages.ts renderLoginPage), served as `<issuer>/assets/login.js`
 * (oidc-router.ts; read once at start by browser-assets.ts). A classic script, no modules, no
 * build step; checked by tsconfig.browser.json (`npm run typecheck`) and eslint (browser globals).
 * It reads what it needs from the page's data- attributes only.
 *
 * The QR logins: asks for them once the page has loaded, shows them and polls their status; on
 * approval the browser continues to the provider (which redirects to the site), on expiry the
 * page says so. Sign-In with Ethereum: asks the browser's
 * wallet (EIP-1193 `window.ethereum`) for an account, has this service build the EIP-4361 message
 * for it, has the wallet sign it (`personal_sign`) and posts it; on success the browser continues
 * like after a QR approval.
 */
'use strict';

/**
 * `GET <interaction>/status`.
 * @typedef {{ status: 'pending' }
 *   | { status: 'done', redirectTo: string }
 *   | { status: 'expired' }
 *   | { status: 'refused', message: string }} QrStatus
 */

/**
 * An EIP-1193 provider (the part this script uses).
 * @typedef {{ request: (args: { method: string, params?: unknown[] }) => Promise<unknown> }} Eip1193
 */

/**
 * POSTs `body` as JSON to this page's service (same origin); a refusal is an Error with the
 * service's `error`. Shared by Sign-In with Ethereum and the passkey steps.
 * @param {string} url
 * @param {unknown} body
 * @returns {Promise<any>}
 */
function postJson(url, body) {
  return fetch(url, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify(body),
  }).then(function (res) {
    return res
      .json()
      .catch(function () {
        return {};
      })
      .then(
        /** @param {{ error?: string }} json */
        function (json) {
          if (!res.ok) throw new Error(json.error || 'The login service answered ' + res.status);
          return json;
        },
      );
  });
}

/**
 * `POST <interaction>/qr`: the page's QR logins (made on this first ask, the same ones after),
 * or why there are none this time.
 * @typedef {{ qr?: { requestId: string, requestIdQr: string, openid4vpUri?: string,
 *   openid4vpQr?: string }, notice?: string }} QrLogins
 */

/**
 * The QR logins (ADR 0036): asked for when the person picks them (the `#qr-show` button this
 * script puts into `#qr-logins`), drawn there (the phone app's QR with its requestId, the
 * wallet's QR and its same-device link), then their status polled; on approval the browser
 * continues to the provider (which redirects to the site), on expiry the page says so. A page
 * on which nobody picks them makes none.
 */
(function () {
  const placeElement = document.getElementById('qr-logins');
  const status = document.getElementById('qr-status');
  const qrUrl = placeElement && placeElement.getAttribute('data-qr-url');
  const url = status && status.getAttribute('data-status-url');
  if (!placeElement || !status || !qrUrl || !url) return;
  const place = placeElement;
  /**
   * An element with its attributes and children (text or elements).
   * @param {string} tag
   * @param {Record<string, string>} attributes
   * @param {Array<string | Node>} [children]
   */
  function element(tag, attributes, children) {
    const node = document.createElement(tag);
    Object.keys(attributes).forEach(function (name) {
      node.setAttribute(name, attributes[name] || '');
    });
    (children || []).forEach(function (child) {
      node.append(child);
    });
    return node;
  }
  /** @param {NonNullable<QrLogins['qr']>} qr */
  function show(qr) {
    const sections = [
      element('section', { 'aria-labelledby': 'app-heading' }, [
        element('h2', { id: 'app-heading' }, ['Log in with the phone app']),
        element('p', {}, ['Scan this code with the phone app and approve the login there.']),
        element('img', {
          class: 'qr',
          id: 'app-qr',
          src: qr.requestIdQr,
          alt: 'QR code for the phone app',
          'data-request-id': qr.requestId,
        }),
      ]),
    ];
    if (qr.openid4vpUri && qr.openid4vpQr) {
      sections.push(
        element('section', { 'aria-labelledby': 'wallet-heading' }, [
          element('h2', { id: 'wallet-heading' }, ['Log in with a wallet (OpenID4VP)']),
          element('p', {}, [
            'Scan this code with a wallet that holds your credential, or ',
            element('a', { id: 'wallet-link', href: qr.openid4vpUri }, [
              'open it in a wallet on this device',
            ]),
            '.',
          ]),
          element('img', {
            class: 'qr',
            id: 'wallet-qr',
            src: qr.openid4vpQr,
            alt: 'QR code for an OpenID4VP wallet',
          }),
        ]),
      );
    }
    place.replaceChildren.apply(place, sections);
  }
  let failures = 0;
  const poll = function () {
    fetch(url, { credentials: 'same-origin', headers: { Accept: 'application/json' } })
      .then(function (res) {
        return res.json();
      })
      .then(
        /** @param {QrStatus} body */
        function (body) {
          failures = 0;
          if (body.status === 'done') {
            window.location.assign(body.redirectTo);
            return;
          }
          if (body.status === 'expired') {
            status.textContent = 'The QR codes have expired: reload the page for new ones.';
            return;
          }
          if (body.status === 'refused') {
            status.textContent = body.message;
            return;
          }
          setTimeout(poll, 1500);
        },
      )
      .catch(function () {
        failures += 1;
        if (failures > 5) {
          status.textContent = 'Cannot reach the login service: reload the page.';
          return;
        }
        setTimeout(poll, 3000);
      });
  };
  const load = function () {
    postJson(qrUrl, {})
      .then(
        /** @param {QrLogins} body */
        function (body) {
          status.textContent = '';
          if (body.qr) {
            show(body.qr);
            setTimeout(poll, 1000);
            return;
          }
          if (body.notice) {
            place.replaceChildren(
              element('p', { class: 'notice', role: 'status', id: 'qr-notice' }, [body.notice]),
            );
          }
        },
      )
      .catch(
        /** @param {{ message?: string } | undefined} err */
        function (err) {
          status.textContent = (err && err.message) || 'The QR codes could not be loaded.';
          button.removeAttribute('disabled');
        },
      );
  };
  const button = element('button', { type: 'button', id: 'qr-show' }, [
    'Show QR codes for the phone app or a wallet',
  ]);
  place.replaceChildren(button);
  button.addEventListener('click', function () {
    button.setAttribute('disabled', '');
    status.textContent = 'Making the QR codes…';
    load();
  });
})();

(function () {
  const section = document.getElementById('siwe');
  if (!section) return;
  const button = /** @type {HTMLButtonElement | null} */ (document.getElementById('siwe-button'));
  const status = document.getElementById('siwe-status');
  const messageUrl = section.getAttribute('data-message-url');
  const loginUrl = section.getAttribute('data-login-url');
  if (!button || !status || !messageUrl || !loginUrl) return;
  /** @param {string} text */
  const say = function (text) {
    status.textContent = text;
  };
  /**
   * `0x` + the hex of `text`'s UTF-8 bytes (personal_sign's message).
   * @param {string} text
   */
  function utf8Hex(text) {
    let out = '0x';
    new TextEncoder().encode(text).forEach(function (byte) {
      out += (byte < 16 ? '0' : '') + byte.toString(16);
    });
    return out;
  }
  button.addEventListener('click', function () {
    const wallet = /** @type {{ ethereum?: Eip1193 }} */ (/** @type {unknown} */ (window)).ethereum;
    if (!wallet || typeof wallet.request !== 'function') {
      say('No Ethereum wallet was found in this browser.');
      return;
    }
    /** @type {string} */
    let address;
    /** @type {string} */
    let message;
    button.disabled = true;
    say('Waiting for the wallet…');
    wallet
      .request({ method: 'eth_requestAccounts' })
      .then(
        /** @param {unknown} accounts */
        function (accounts) {
          const first = Array.isArray(accounts) ? accounts[0] : undefined;
          if (!first) throw new Error('The wallet shared no account.');
          address = String(first);
          return postJson(messageUrl, { address: address });
        },
      )
      .then(
        /** @param {{ message: string }} body */
        function (body) {
          message = body.message;
          say('Sign the message in your wallet…');
          return wallet.request({ method: 'personal_sign', params: [utf8Hex(message), address] });
        },
      )
      .then(function (signature) {
        say('Checking the signature…');
        return postJson(loginUrl, { message: message, signature: signature });
      })
      .then(
        /** @param {{ redirectTo: string }} body */
        function (body) {
          window.location.assign(body.redirectTo);
        },
      )
      .catch(
        /** @param {{ code?: unknown, message?: string } | undefined} err */
        function (err) {
          button.disabled = false;
          say(
            err && err.code === 4001
              ? 'The request was rejected in the wallet.'
              : (err && err.message) || 'Sign-In with Ethereum failed.',
          );
        },
      );
  });
})();

/**
 * "Sign in with a passkey" (WebAuthn, docs/api.md §13) and the passkey autofill on the user id
 * field (`autocomplete="username webauthn"`: conditional mediation, where the browser has it).
 * Each attempt asks `<interaction>/passkey/options` for one-time request options, has the
 * browser's authenticator answer them and posts the answer to `<interaction>/passkey`; on success
 * the browser continues like after a QR approval.
 */
(function () {
  const section = document.getElementById('passkey');
  if (!section) return;
  const button = /** @type {HTMLButtonElement | null} */ (
    document.getElementById('passkey-button')
  );
  const status = document.getElementById('passkey-status');
  const optionsAttribute = section.getAttribute('data-options-url');
  const loginAttribute = section.getAttribute('data-login-url');
  if (!button || !status || !optionsAttribute || !loginAttribute) return;
  const optionsUrl = optionsAttribute;
  const loginUrl = loginAttribute;
  if (!window.PublicKeyCredential || !navigator.credentials) {
    status.textContent = 'This browser has no passkey support.';
    button.disabled = true;
    return;
  }
  /** @param {string} text */
  const say = function (text) {
    status.textContent = text;
  };
  /** @type {AbortController | undefined} */
  let autofill;
  /**
   * One passkey login: options, the authenticator's answer (from the button, or the autofill
   * when `conditional`), the check; then the site.
   * @param {boolean} conditional
   */
  function signIn(conditional) {
    const abort = new AbortController();
    if (conditional) autofill = abort;
    return postJson(optionsUrl, {})
      .then(
        /** @param {{ options: PublicKeyCredentialRequestOptionsJSON }} body */
        function (body) {
          const publicKey = PublicKeyCredential.parseRequestOptionsFromJSON(body.options);
          return navigator.credentials.get(
            conditional
              ? { publicKey: publicKey, mediation: 'conditional', signal: abort.signal }
              : { publicKey: publicKey, signal: abort.signal },
          );
        },
      )
      .then(function (credential) {
        if (!credential) throw new Error('No passkey was chosen.');
        say('Checking the passkey…');
        return postJson(loginUrl, {
          response: /** @type {PublicKeyCredential} */ (credential).toJSON(),
        });
      })
      .then(
        /** @param {{ redirectTo: string }} body */
        function (body) {
          window.location.assign(body.redirectTo);
        },
      );
  }
  button.addEventListener('click', function () {
    if (autofill) autofill.abort();
    autofill = undefined;
    button.disabled = true;
    say('Waiting for the passkey…');
    signIn(false).catch(
      /** @param {{ name?: string, message?: string } | undefined} err */
      function (err) {
        button.disabled = false;
        say(
          err && err.name === 'NotAllowedError'
            ? 'No passkey was used (cancelled or timed out).'
            : (err && err.message) || 'Passkey sign-in failed.',
        );
      },
    );
  });
  // The autofill: the browser offers the site's passkeys on the user id field.
  if (typeof PublicKeyCredential.isConditionalMediationAvailable === 'function') {
    PublicKeyCredential.isConditionalMediationAvailable().then(function (available) {
      if (!available) return;
      signIn(true).catch(
        /** @param {{ name?: string, message?: string } | undefined} err */
        function (err) {
          if (err && err.name === 'AbortError') return;
          say((err && err.message) || 'Passkey sign-in failed.');
        },
      );
    });
  }
})();
