// @ts-check
/**
 * The demo passkeys page's script (demo-pages.ts DEMO_PASSKEYS_PAGE), served as
 * /demo/passkeys.js (demo-router.ts, read once when the router is made). A classic script
 * (ES2017, no build step; what the pages share it imports, demo-api.js) that talks only to this
 * gateway's /v2/auth API; checked by
 * tsconfig.browser.json (`npm run typecheck`) and eslint (browser globals).
 *
 * Password login (auth-user) gives the page a token; "Add a passkey" asks for registration
 * options (passkeys/registration-options, bearer), has the browser's authenticator make a
 * discoverable credential (`navigator.credentials.create` with
 * `PublicKeyCredential.parseCreationOptionsFromJSON`) and registers `credential.toJSON()`
 * (POST passkeys); the account's passkeys (GET account) are listed with a remove button
 * (passkeys/remove). "Sign in with a passkey" needs no token: authentication options, then
 * `navigator.credentials.get` with `parseRequestOptionsFromJSON`, then auth-user-with-passkey
 * with the assertion; its login result becomes the page's login. Adding and removing need a
 * recent login (step-up, 401 insufficient_user_authentication): the page says to log in again.
 */
'use strict';

/**
 * The page's elements by id.
 * @typedef {{
 *   support: HTMLElement,
 *   'user-id': HTMLInputElement,
 *   password: HTMLInputElement,
 *   login: HTMLButtonElement,
 *   'login-status': HTMLElement,
 *   account: HTMLElement,
 *   'account-name': HTMLElement,
 *   'account-user-id': HTMLElement,
 *   'passkey-name': HTMLInputElement,
 *   add: HTMLButtonElement,
 *   'add-status': HTMLElement,
 *   passkeys: HTMLUListElement,
 *   'passkeys-none': HTMLElement,
 *   signin: HTMLButtonElement,
 *   'signin-status': HTMLElement,
 *   'signed-in': HTMLElement,
 *   'signed-in-name': HTMLElement,
 *   'signed-in-user-id': HTMLElement,
 *   'signed-in-email': HTMLElement,
 * }} PasskeyElements
 */

/**
 * auth-user's and auth-user-with-passkey's answer.
 * @typedef {{ token: string, userId: string, name: string, telNo: string | null, email: string }}
 *   LoginResult
 */

/**
 * One passkey of the account (GET /v2/auth/account `passkeys`); times in ISO 8601.
 * @typedef {{ id: string, name: string, createdAt: string, lastUsedAt?: string }} Passkey
 */

/** @typedef {import('./demo-api.js').ApiError} ApiError */

(function () {
  var STEP_UP = 'insufficient_user_authentication';
  /**
   * @template {keyof PasskeyElements} K
   * @param {K} id
   * @returns {PasskeyElements[K]}
   */
  var $ = function (id) {
    return /** @type {PasskeyElements[K]} */ (document.getElementById(id));
  };
  /**
   * The page's login: the last password or passkey login (its JWT is the bearer).
   * @type {LoginResult | null}
   */
  var session = null;

  /**
   * @param {'login-status' | 'add-status' | 'signin-status'} where
   * @param {string} text
   * @param {string} [kind]
   */
  var say = function (where, text, kind) {
    $(where).textContent = text;
    $(where).className = kind || '';
  };

  /** What the demo pages share (demo-api.js): their API call. */
  var shared = import('./demo-api.js');
  /**
   * A call of the gateway's REST API (demo-api.js): the JSON answer, or an ApiError with the
   * answer's `error.code` and message.
   * @type {typeof import('./demo-api.js').api}
   */
  var api = function (method, path, body, token) {
    return shared.then(function (demo) {
      return demo.api(method, path, body, token);
    });
  };

  /**
   * What went wrong, for the page: a stale login, the authenticator's refusal, or the API's message.
   * @param {ApiError | DOMException} err
   * @returns {string}
   */
  var explain = function (err) {
    if ('code' in err && err.code === STEP_UP) {
      return 'Your login is too old for this (step-up): log in again with your password or a passkey, then retry.';
    }
    if (err.name === 'NotAllowedError') {
      return 'The authenticator gave no passkey (cancelled, timed out, or none for this site).';
    }
    if (err.name === 'InvalidStateError') {
      return 'This authenticator already holds a passkey of this account.';
    }
    if (err.name === 'SecurityError') {
      return (
        'The browser refused the passkey for this address (' +
        err.message +
        '): open this page on the host name of the platform’s public URL.'
      );
    }
    return err.message;
  };

  /**
   * WebAuthn with JSON options (parseCreationOptionsFromJSON / parseRequestOptionsFromJSON):
   * Chromium 129+, Firefox 119+, Safari 18.4+.
   * @returns {boolean}
   */
  var supported = function () {
    var pkc = window.PublicKeyCredential;
    return (
      typeof pkc === 'function' &&
      typeof pkc.parseCreationOptionsFromJSON === 'function' &&
      typeof pkc.parseRequestOptionsFromJSON === 'function' &&
      !!window.navigator.credentials
    );
  };

  /**
   * A WebAuthn RP id covers its own host name and the names below it; elsewhere the browser
   * refuses the ceremony with a SecurityError. Say so before asking the authenticator.
   * @param {string} rpId
   */
  var checkHost = function (rpId) {
    var host = window.location.hostname;
    if (host !== rpId && host.slice(-(rpId.length + 1)) !== '.' + rpId) {
      throw new Error(
        'Passkeys here are for "' +
          rpId +
          '", but this page is at "' +
          host +
          '": open it as ' +
          window.location.protocol +
          '//' +
          rpId +
          (window.location.port ? ':' + window.location.port : '') +
          '/demo/passkeys.',
      );
    }
  };

  /**
   * An ISO 8601 instant as the page shows it (UTC, to the second).
   * @param {string} iso
   */
  var when = function (iso) {
    var date = new Date(iso);
    return isNaN(date.getTime()) ? iso : date.toISOString().replace('T', ' ').slice(0, 19) + ' UTC';
  };

  /** @param {Passkey[]} passkeys */
  var showPasskeys = function (passkeys) {
    var list = $('passkeys');
    while (list.firstChild) list.removeChild(list.firstChild);
    passkeys.forEach(function (passkey) {
      var item = document.createElement('li');
      item.setAttribute('data-id', passkey.id);
      var name = document.createElement('strong');
      name.className = 'passkey-name';
      name.textContent = passkey.name;
      var times = document.createElement('span');
      times.className = 'passkey-times';
      times.textContent =
        ' — added ' +
        when(passkey.createdAt) +
        ', last used ' +
        (passkey.lastUsedAt === undefined ? 'never' : when(passkey.lastUsedAt)) +
        ' ';
      var remove = document.createElement('button');
      remove.type = 'button';
      remove.className = 'remove';
      remove.textContent = 'Remove';
      remove.addEventListener('click', function () {
        removePasskey(passkey, remove);
      });
      item.appendChild(name);
      item.appendChild(times);
      item.appendChild(remove);
      list.appendChild(item);
    });
    $('passkeys-none').hidden = passkeys.length > 0;
  };

  /** Lists the account's passkeys (GET /v2/auth/account). */
  var refresh = function () {
    if (!session) return Promise.resolve();
    return api('GET', '/v2/auth/account', undefined, session.token).then(
      /** @param {{ passkeys?: Passkey[] }} account */
      function (account) {
        showPasskeys(account.passkeys || []);
      },
    );
  };

  /**
   * The page's login is `login` from now on: its account's passkeys are listed.
   * @param {LoginResult} login
   */
  var loggedIn = function (login) {
    session = login;
    $('account-name').textContent = login.name;
    $('account-user-id').textContent = login.userId;
    $('account').hidden = false;
    return refresh();
  };

  /**
   * @param {Passkey} passkey
   * @param {HTMLButtonElement} button
   */
  var removePasskey = function (passkey, button) {
    if (!session) return;
    button.disabled = true;
    say('add-status', 'Removing "' + passkey.name + '"…');
    api('POST', '/v2/auth/passkeys/remove', { id: passkey.id }, session.token)
      .then(function () {
        say('add-status', 'Removed "' + passkey.name + '": it no longer logs in.', 'ok');
        return refresh();
      })
      .catch(
        /** @param {ApiError} err */
        function (err) {
          button.disabled = false;
          say('add-status', 'Could not remove it: ' + explain(err), 'error');
        },
      );
  };

  $('login').addEventListener('click', function () {
    $('login').disabled = true;
    say('login-status', 'Logging in…');
    api('POST', '/v2/auth/auth-user', { id: $('user-id').value, password: $('password').value })
      .then(
        /** @param {LoginResult} login */
        function (login) {
          $('password').value = '';
          say('login-status', 'Logged in as ' + login.name + ' (' + login.userId + ').', 'ok');
          return loggedIn(login);
        },
      )
      .catch(
        /** @param {ApiError} err */
        function (err) {
          say('login-status', 'Login failed: ' + explain(err), 'error');
        },
      )
      .then(function () {
        $('login').disabled = false;
      });
  });

  $('add').addEventListener('click', function () {
    if (!session) return;
    var token = session.token;
    var name = $('passkey-name').value.trim();
    $('add').disabled = true;
    say('add-status', 'Asking for registration options…');
    api('POST', '/v2/auth/passkeys/registration-options', {}, token)
      .then(
        /** @param {PublicKeyCredentialCreationOptionsJSON} options */
        function (options) {
          checkHost(options.rp.id || window.location.hostname);
          say('add-status', 'Follow your browser’s prompt to make the passkey…');
          return window.navigator.credentials.create({
            publicKey: window.PublicKeyCredential.parseCreationOptionsFromJSON(options),
          });
        },
      )
      .then(function (credential) {
        if (!credential) throw new Error('The browser made no credential.');
        var response = /** @type {PublicKeyCredential} */ (credential).toJSON();
        say('add-status', 'Registering it…');
        return api(
          'POST',
          '/v2/auth/passkeys',
          name ? { response: response, name: name } : { response: response },
          token,
        );
      })
      .then(
        /** @param {Passkey} passkey */
        function (passkey) {
          $('passkey-name').value = '';
          say('add-status', 'Added "' + passkey.name + '".', 'ok');
          return refresh();
        },
      )
      .catch(
        /** @param {ApiError} err */
        function (err) {
          say('add-status', 'Could not add a passkey: ' + explain(err), 'error');
        },
      )
      .then(function () {
        $('add').disabled = false;
      });
  });

  $('signin').addEventListener('click', function () {
    $('signin').disabled = true;
    $('signed-in').hidden = true;
    say('signin-status', 'Asking for authentication options…');
    api('POST', '/v2/auth/passkeys/authentication-options', {})
      .then(
        /** @param {PublicKeyCredentialRequestOptionsJSON} options */
        function (options) {
          checkHost(options.rpId || window.location.hostname);
          say('signin-status', 'Choose a passkey in your browser’s prompt…');
          return window.navigator.credentials.get({
            publicKey: window.PublicKeyCredential.parseRequestOptionsFromJSON(options),
          });
        },
      )
      .then(function (credential) {
        if (!credential) throw new Error('The browser gave no passkey.');
        var response = /** @type {PublicKeyCredential} */ (credential).toJSON();
        say('signin-status', 'Signing in…');
        return api('POST', '/v2/auth/auth-user-with-passkey', { response: response });
      })
      .then(
        /** @param {LoginResult} login */
        function (login) {
          $('signed-in-name').textContent = login.name;
          $('signed-in-user-id').textContent = login.userId;
          $('signed-in-email').textContent = login.email || '-';
          $('signed-in').hidden = false;
          say('signin-status', 'Signed in with a passkey.', 'ok');
          say('login-status', 'Logged in as ' + login.name + ' (' + login.userId + ').', 'ok');
          return loggedIn(login);
        },
      )
      .catch(
        /** @param {ApiError} err */
        function (err) {
          say('signin-status', 'Sign-in failed: ' + explain(err), 'error');
        },
      )
      .then(function () {
        $('signin').disabled = false;
      });
  });

  if (!supported()) {
    $('support').textContent =
      'This browser cannot make or use passkeys from JSON options (WebAuthn Level 3: ' +
      'PublicKeyCredential.parseCreationOptionsFromJSON). Use a current Chrome, Edge, Firefox or Safari.';
    $('support').hidden = false;
    $('add').disabled = true;
    $('signin').disabled = true;
  }
})();
