/**
 * The demo pages' scripts, served as /demo/site.js and /demo/phone.js: small vanilla JS (ES2017,
 * no modules, no build step) that talks only to this gateway.
 */

/**
 * The web site: its own server route starts the login request (the client secret never reaches
 * the browser), the page shows the requestId's QR code (and, when the answer has one, the
 * request's OpenID4VP QR code and link for any wallet) and polls the site's server for the
 * result, at least 1.5 s apart and longer when auth-service says `slow_down`: whichever code is
 * used, the same poll sees the approval.
 */
export const DEMO_SITE_SCRIPT = `'use strict';
(function () {
  var POLL_MS = 1500;
  var $ = function (id) { return document.getElementById(id); };
  var status = function (text, kind) {
    $('status').textContent = text;
    $('status').className = kind || '';
  };
  var post = function (path, body) {
    return fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body || {})
    }).then(function (res) {
      return res.json().then(function (json) {
        if (!res.ok) throw new Error((json.error && json.error.message) || 'HTTP ' + res.status);
        return json;
      });
    });
  };
  var poll = function (requestId) {
    post('/demo/api/login-result', { requestId: requestId }).then(function (state) {
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
      } else {
        var wait = state.retryAfterSeconds ? state.retryAfterSeconds * 1000 : POLL_MS;
        setTimeout(function () { poll(requestId); }, Math.max(wait, POLL_MS));
      }
    }).catch(function (err) {
      $('start').disabled = false;
      status('Polling failed: ' + err.message, 'error');
    });
  };
  $('start').addEventListener('click', function () {
    $('start').disabled = true;
    $('user').hidden = true;
    status('Starting a login request…');
    post('/demo/api/login-request').then(function (request) {
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
      status('Waiting for the phone app' + (request.openid4vpUri ? ' or a wallet' : '') +
        ' (up to ' + request.waitTime + ' s)…');
      setTimeout(function () { poll(request.requestId); }, POLL_MS);
    }).catch(function (err) {
      $('start').disabled = false;
      status('Could not start: ' + err.message, 'error');
    });
  });
})();
`;

/**
 * The phone app: password login (auth-user), then its wallet (token createAddress, kept in
 * localStorage per user), DID (create-did with the bearer, which also binds it), credential
 * (create-vc, reused until shortly before it expires); approving = create-vp for the service's
 * verifier + auth-user-with-vp with the requestId.
 */
export const DEMO_PHONE_SCRIPT = `'use strict';
(function () {
  var $ = function (id) { return document.getElementById(id); };
  var session = null;
  var step = function (text, kind) {
    var li = document.createElement('li');
    li.textContent = text;
    if (kind) li.className = kind;
    $('setup').appendChild(li);
  };
  var rest = function (method, path, body, token) {
    var headers = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (token) headers.authorization = 'Bearer ' + token;
    return fetch(path, {
      method: method,
      headers: headers,
      body: body === undefined ? undefined : JSON.stringify(body)
    }).then(function (res) {
      return res.json().then(function (json) {
        if (!res.ok) throw new Error((json.error && json.error.message) || 'HTTP ' + res.status);
        return json;
      });
    });
  };
  var rpc = function (method, params) {
    return rest('POST', '/token', { jsonrpc: '2.0', id: 1, method: method, params: params })
      .then(function (answer) {
        if (answer.error) throw new Error(answer.error.message || answer.error.msg);
        if (answer.result.resultCode !== '200') throw new Error(answer.result.resultMessage);
        return answer.result.resultData;
      });
  };
  var stored = function (key) {
    try { return JSON.parse(localStorage.getItem(key) || 'null'); } catch (e) { return null; }
  };
  var wallet = function (userId) {
    var key = 'itp-demo-wallet:' + userId;
    var kept = stored(key);
    if (kept && kept.address && kept.secretKey) {
      step('Wallet reused: ' + kept.address);
      return Promise.resolve(kept);
    }
    return rpc('createAddress', {}).then(function (created) {
      var w = { address: created.address, secretKey: created.secretKey };
      localStorage.setItem(key, JSON.stringify(w));
      step('Wallet created: ' + w.address);
      return w;
    });
  };
  var credential = function (userId, holder, token, name) {
    var key = 'itp-demo-vc:' + userId;
    var kept = stored(key);
    var freshUntil = Date.now() + 10 * 60 * 1000;
    if (kept && kept.credentialSubject && kept.credentialSubject.id === holder &&
        (!kept.expirationDate || Date.parse(kept.expirationDate) > freshUntil)) {
      step('Credential reused (issued ' + kept.issuanceDate + ')');
      return Promise.resolve(kept);
    }
    return rest('GET', '/v2/did/issuers').then(function (issuers) {
      return rest('POST', '/v2/did/create-vc',
        { holder: holder, issuer: issuers[0].did, userInfo: { name: name } }, token);
    }).then(function (vc) {
      localStorage.setItem(key, JSON.stringify(vc));
      step('Credential issued by ' + vc.issuer.id);
      return vc;
    });
  };
  $('login').addEventListener('click', function () {
    var userId = $('user-id').value.trim();
    $('setup').textContent = '';
    $('approve').disabled = true;
    $('login').disabled = true;
    var s = { userId: userId };
    rest('POST', '/v2/auth/auth-user', { id: userId, password: $('password').value })
      .then(function (result) {
        s.token = result.token;
        s.name = result.name;
        step('Logged in as ' + result.userId);
        return wallet(result.userId);
      })
      .then(function (w) {
        return rest('POST', '/v2/did/create-did',
          { alias: 'demo-phone', address: w.address, secretKey: w.secretKey }, s.token);
      })
      .then(function (record) {
        s.did = record.did;
        $('did').textContent = record.did;
        step('DID ready');
        return credential(s.userId, s.did, s.token, s.name);
      })
      .then(function (vc) {
        s.vc = vc;
        session = s;
        $('approve').disabled = false;
        step('Ready to approve logins', 'ok');
      })
      .catch(function (err) { step('Failed: ' + err.message, 'error'); })
      .then(function () { $('login').disabled = false; });
  });
  $('approve').addEventListener('click', function () {
    var requestId = $('request-id').value.trim();
    if (!session || !requestId) return;
    $('approve').disabled = true;
    $('approve-status').className = '';
    $('approve-status').textContent = 'Presenting the credential…';
    rest('GET', '/v2/did/verifiers').then(function (verifiers) {
      return rest('POST', '/v2/did/create-vp',
        { holder: session.did, verifier: verifiers[0].did, credentials: [session.vc] }, session.token);
    }).then(function (vp) {
      return rest('POST', '/v2/auth/auth-user-with-vp', { vp: vp, requestId: requestId });
    }).then(function (result) {
      $('approve-status').className = 'ok';
      $('approve-status').textContent = 'Approved: the web site is now logged in as ' + result.userId + '.';
    }).catch(function (err) {
      $('approve-status').className = 'error';
      $('approve-status').textContent = 'Refused: ' + err.message;
    }).then(function () { $('approve').disabled = false; });
  });
})();
`;
