// @ts-check
/**
 * The demo phone app's script (demo-pages.ts DEMO_PHONE_PAGE), served as /demo/phone.js
 * (demo-router.ts, read once when the router is made). A classic script (ES2017, no
 * build step; what the pages share it imports, demo-api.js) that talks only to this gateway; checked by tsconfig.browser.json
 * (`npm run typecheck`) and eslint (browser globals).
 *
 * Password login (auth-user), then its wallet (token createAddress, kept in localStorage per
 * user), DID (create-did with the bearer, which also binds it), credential (create-vc, reused
 * until shortly before it expires); approving = create-vp for the service's verifier +
 * auth-user-with-vp with the requestId.
 */
'use strict';

/**
 * The page's elements by id.
 * @typedef {{
 *   'user-id': HTMLInputElement,
 *   password: HTMLInputElement,
 *   login: HTMLButtonElement,
 *   setup: HTMLElement,
 *   did: HTMLElement,
 *   'request-id': HTMLTextAreaElement,
 *   approve: HTMLButtonElement,
 *   'approve-status': HTMLElement,
 * }} PhoneElements
 */

/** @typedef {{ address: string, secretKey: string }} Wallet */

/**
 * A JWT VC as did-service answers it (the fields this script reads).
 * @typedef {{
 *   issuer: { id: string },
 *   issuanceDate: string,
 *   expirationDate?: string,
 *   credentialSubject: { id: string },
 * }} Credential
 */

/**
 * What the phone app holds once set up.
 * @typedef {{ userId: string, token?: string, name?: string, did?: string, vc?: Credential }}
 *   Session
 */

(function () {
  /**
   * @template {keyof PhoneElements} K
   * @param {K} id
   * @returns {PhoneElements[K]}
   */
  var $ = function (id) {
    return /** @type {PhoneElements[K]} */ (document.getElementById(id));
  };
  /** @type {Session | null} */
  var session = null;
  /**
   * @param {string} text
   * @param {string} [kind]
   */
  var step = function (text, kind) {
    var li = document.createElement('li');
    li.textContent = text;
    if (kind) li.className = kind;
    $('setup').appendChild(li);
  };
  /** What the demo pages share (demo-api.js): their API call. */
  var shared = import('./demo-api.js');
  /**
   * A call of the gateway's API (demo-api.js): the JSON answer, or an error with its message.
   * @type {typeof import('./demo-api.js').api}
   */
  var rest = function (method, path, body, token) {
    return shared.then(function (demo) {
      return demo.api(method, path, body, token);
    });
  };
  /**
   * @param {string} method
   * @param {Record<string, unknown>} params
   * @returns {Promise<any>}
   */
  var rpc = function (method, params) {
    return rest('POST', '/token', { jsonrpc: '2.0', id: 1, method: method, params: params }).then(
      function (answer) {
        if (answer.error) throw new Error(answer.error.message || answer.error.msg);
        if (answer.result.resultCode !== '200') throw new Error(answer.result.resultMessage);
        return answer.result.resultData;
      },
    );
  };
  /**
   * @param {string} key
   * @returns {any}
   */
  var stored = function (key) {
    try {
      return JSON.parse(localStorage.getItem(key) || 'null');
    } catch (e) {
      return null;
    }
  };
  /**
   * @param {string} userId
   * @returns {Promise<Wallet>}
   */
  var wallet = function (userId) {
    var key = 'itp-demo-wallet:' + userId;
    var kept = stored(key);
    if (kept && kept.address && kept.secretKey) {
      step('Wallet reused: ' + kept.address);
      return Promise.resolve(kept);
    }
    return rpc('createAddress', {}).then(
      /** @param {Wallet} created */
      function (created) {
        var w = { address: created.address, secretKey: created.secretKey };
        localStorage.setItem(key, JSON.stringify(w));
        step('Wallet created: ' + w.address);
        return w;
      },
    );
  };
  /**
   * @param {string} userId
   * @param {string} holder
   * @param {string} token
   * @param {string} name
   * @returns {Promise<Credential>}
   */
  var credential = function (userId, holder, token, name) {
    var key = 'itp-demo-vc:' + userId;
    var kept = stored(key);
    var freshUntil = Date.now() + 10 * 60 * 1000;
    if (
      kept &&
      kept.credentialSubject &&
      kept.credentialSubject.id === holder &&
      (!kept.expirationDate || Date.parse(kept.expirationDate) > freshUntil)
    ) {
      step('Credential reused (issued ' + kept.issuanceDate + ')');
      return Promise.resolve(kept);
    }
    return rest('GET', '/v2/did/issuers')
      .then(
        /** @param {{ did: string }[]} issuers */
        function (issuers) {
          var issuer = issuers[0];
          if (!issuer) throw new Error('did-service lists no issuer');
          return rest(
            'POST',
            '/v2/did/create-vc',
            { holder: holder, issuer: issuer.did, userInfo: { name: name } },
            token,
          );
        },
      )
      .then(
        /** @param {Credential} vc */
        function (vc) {
          localStorage.setItem(key, JSON.stringify(vc));
          step('Credential issued by ' + vc.issuer.id);
          return vc;
        },
      );
  };
  $('login').addEventListener('click', function () {
    var userId = $('user-id').value.trim();
    $('setup').textContent = '';
    $('approve').disabled = true;
    $('login').disabled = true;
    /** @type {Session} */
    var s = { userId: userId };
    rest('POST', '/v2/auth/auth-user', { id: userId, password: $('password').value })
      .then(
        /** @param {{ token: string, name: string, userId: string }} result */
        function (result) {
          s.token = result.token;
          s.name = result.name;
          step('Logged in as ' + result.userId);
          return wallet(result.userId);
        },
      )
      .then(function (w) {
        return rest(
          'POST',
          '/v2/did/create-did',
          { alias: 'demo-phone', address: w.address, secretKey: w.secretKey },
          s.token,
        );
      })
      .then(
        /** @param {{ did: string }} record */
        function (record) {
          s.did = record.did;
          $('did').textContent = record.did;
          step('DID ready');
          return credential(s.userId, record.did, s.token || '', s.name || '');
        },
      )
      .then(function (vc) {
        s.vc = vc;
        session = s;
        $('approve').disabled = false;
        step('Ready to approve logins', 'ok');
      })
      .catch(
        /** @param {Error} err */
        function (err) {
          step('Failed: ' + err.message, 'error');
        },
      )
      .then(function () {
        $('login').disabled = false;
      });
  });
  $('approve').addEventListener('click', function () {
    var requestId = $('request-id').value.trim();
    const current = session;
    if (!current || !requestId) return;
    $('approve').disabled = true;
    $('approve-status').className = '';
    $('approve-status').textContent = 'Presenting the credential…';
    rest('GET', '/v2/did/verifiers')
      .then(
        /** @param {{ did: string }[]} verifiers */
        function (verifiers) {
          var verifier = verifiers[0];
          if (!verifier) throw new Error('did-service lists no verifier');
          return rest(
            'POST',
            '/v2/did/create-vp',
            {
              holder: current.did,
              verifier: verifier.did,
              credentials: [current.vc],
            },
            current.token,
          );
        },
      )
      .then(function (vp) {
        return rest('POST', '/v2/auth/auth-user-with-vp', { vp: vp, requestId: requestId });
      })
      .then(
        /** @param {{ userId: string }} result */
        function (result) {
          $('approve-status').className = 'ok';
          $('approve-status').textContent =
            'Approved: the web site is now logged in as ' + result.userId + '.';
        },
      )
      .catch(
        /** @param {Error} err */
        function (err) {
          $('approve-status').className = 'error';
          $('approve-status').textContent = 'Refused: ' + err.message;
        },
      )
      .then(function () {
        $('approve').disabled = false;
      });
  });
})();
