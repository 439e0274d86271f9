import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startGateway, type RunningGateway } from '../testing/start-gateway.js';
import { DEMO_CSP } from './demo-router.js';
import { decodeQr } from '@itp/testing/qr';

/**
 * The demo's server side against a scripted auth-service (the answers of its README's web-site
 * login table); the whole flow against the real stack is e2e/src/dev-suites/demo-browser.suite.ts.
 */
interface Scripted {
  url: string;
  seen: Array<{ url: string; headers: IncomingHttpHeaders; body: string }>;
  answer: { status: number; body: unknown; headers?: Record<string, string> };
  server: Server;
}

async function scriptedAuth(): Promise<Scripted> {
  const scripted = { seen: [], answer: { status: 200, body: {} } } as unknown as Scripted;
  scripted.server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (req.url?.startsWith('/health')) return void res.end('{}');
      scripted.seen.push({ url: req.url ?? '', headers: req.headers, body });
      res.writeHead(scripted.answer.status, {
        'content-type': 'application/json',
        ...scripted.answer.headers,
      });
      res.end(JSON.stringify(scripted.answer.body));
    });
  });
  await new Promise<void>((resolve) => scripted.server.listen(0, '127.0.0.1', resolve));
  scripted.url = `http://127.0.0.1:${(scripted.server.address() as AddressInfo).port}`;
  return scripted;
}

const upstreams = (auth: string) => ({
  AUTH_SERVICE_URL: auth,
  DID_SERVICE_URL: 'http://127.0.0.1:9',
  TOKEN_RPC_URL: 'http://127.0.0.1:9',
  BLOCK_RPC_URL: 'http://127.0.0.1:9',
});

describe('/demo (gateway, development mode)', () => {
  let auth: Scripted;
  let gateway: RunningGateway;
  beforeAll(async () => {
    auth = await scriptedAuth();
    gateway = await startGateway({
      APP_ENV: 'development',
      PUBLIC_URL: 'http://localhost:8080',
      ...upstreams(auth.url),
    });
  });
  afterAll(async () => {
    await gateway.close();
    await new Promise((resolve) => auth.server.close(resolve));
  });

  const poll = (requestId: unknown) =>
    fetch(`${gateway.url}/demo/api/login-result`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ requestId }),
    });

  it('serves the pages and scripts under a same-origin CSP', async () => {
    for (const path of [
      '/demo',
      '/demo/site',
      '/demo/phone',
      '/demo/passkeys',
      '/demo/age',
      '/demo/site.js',
      '/demo/phone.js',
      '/demo/passkeys.js',
      '/demo/age.js',
    ]) {
      const res = await fetch(`${gateway.url}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-security-policy')).toBe(DEMO_CSP);
      const text = await res.text();
      expect(text).not.toMatch(/<script>|\sstyle=|https?:\/\/(?!localhost:8080\/demo)/);
    }
  });

  it('links the passkeys page from the index; every element its script reads is on the page', async () => {
    const index = await (await fetch(`${gateway.url}/demo`)).text();
    expect(index).toContain('<a href="/demo/passkeys">');
    const page = await (await fetch(`${gateway.url}/demo/passkeys`)).text();
    const script = await (await fetch(`${gateway.url}/demo/passkeys.js`)).text();
    const read = [...new Set([...script.matchAll(/\$\('([a-z-]+)'\)/g)].map((m) => m[1]))];
    expect(read).toEqual(expect.arrayContaining(['login', 'add', 'passkeys', 'signin']));
    expect(read.filter((id) => !page.includes(` id="${id}"`))).toEqual([]);
    // The page talks to the gateway's own /v2/auth API, never to another origin.
    const paths = [...script.matchAll(/'(\/v2\/auth\/[a-z/-]+)'/g)].map((m) => m[1]);
    expect([...new Set(paths)].sort()).toEqual([
      '/v2/auth/account',
      '/v2/auth/auth-user',
      '/v2/auth/auth-user-with-passkey',
      '/v2/auth/passkeys',
      '/v2/auth/passkeys/authentication-options',
      '/v2/auth/passkeys/registration-options',
      '/v2/auth/passkeys/remove',
    ]);
  });

  it('starts a login request with the client secret and answers its requestId and QR code', async () => {
    const requestId = `http://localhost:8080/demo?requestId=${'1'.repeat(52)}`;
    auth.answer = { status: 200, body: { requestId, waitTime: 120 } };
    const res = await fetch(`${gateway.url}/demo/api/login-request`, { method: 'POST' });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, string>;
    expect(body).toEqual({ requestId, waitTime: 120, qr: expect.any(String) });
    expect(body.qr).toMatch(/^data:image\/png;base64,/);
    expect(JSON.stringify(body)).not.toContain('demo-site-secret');
    const call = auth.seen.at(-1);
    expect(call?.url).toBe('/v2/auth/auth-user-by-app');
    expect(call?.headers.authorization).toBe(
      `Basic ${Buffer.from('demo-site:demo-site-secret').toString('base64')}`,
    );
    expect(JSON.parse(call?.body ?? '')).toEqual({
      requestId: 'http://localhost:8080/demo?',
      waitTime: 120,
    });
  });

  it("sends the site identifier of PUBLIC_URL's port: the dev stack on another PORT gets no 403", async () => {
    const other = await startGateway({
      APP_ENV: 'development',
      PUBLIC_URL: 'http://localhost:9090/',
      ...upstreams(auth.url),
    });
    try {
      auth.answer = { status: 401, body: { error: 'x' } };
      await fetch(`${other.url}/demo/api/login-request`, { method: 'POST' });
      expect(JSON.parse(auth.seen.at(-1)?.body ?? '')).toEqual({
        requestId: 'http://localhost:9090/demo?',
        waitTime: 120,
      });
    } finally {
      await other.close();
    }
  });

  it("shows the request's OpenID4VP URI beside the requestId: a second QR code and its link", async () => {
    const page = await (await fetch(`${gateway.url}/demo/site`)).text();
    expect(page).toContain('<figure id="oid4vp" hidden>');
    expect(page).toMatch(/<img id="oid4vp-qr" alt="QR code [^"]*OpenID4VP wallet[^"]*">/);
    expect(page).toContain('<a id="oid4vp-uri" href="">');
    expect(page).toContain('<code id="oid4vp-uri-text"></code>');
    const script = await (await fetch(`${gateway.url}/demo/site.js`)).text();
    expect(script).toContain("$('oid4vp-qr').src = request.openid4vpQr;");
    expect(script).toContain("$('oid4vp-uri').href = request.openid4vpUri;");

    const requestId = `http://localhost:8080/demo?requestId=${'2'.repeat(52)}`;
    const openid4vpUri =
      'openid4vp://?client_id=decentralized_identifier%3Adid%3Aethr%3A0x0000000000000000000000000000000000000001' +
      '&request_uri=http%3A%2F%2F127.0.0.1%3A8080%2Fv2%2Fauth%2Foid4vp%2Frequest%2Fabc';
    auth.answer = { status: 200, body: { requestId, waitTime: 120, openid4vpUri } };
    const res = await fetch(`${gateway.url}/demo/api/login-request`, { method: 'POST' });
    const body = (await res.json()) as Record<string, string>;
    expect(body).toEqual({
      requestId,
      waitTime: 120,
      qr: expect.any(String),
      openid4vpUri,
      openid4vpQr: expect.any(String),
    });
    expect(decodeQr(body.qr ?? '')).toBe(requestId);
    expect(decodeQr(body.openid4vpQr ?? '')).toBe(openid4vpUri);
  });

  it('offers no OpenID4VP code when auth-service gives none, or something else than openid4vp://', async () => {
    const requestId = `http://localhost:8080/demo?requestId=${'3'.repeat(52)}`;
    for (const openid4vpUri of [undefined, 'javascript:alert(1)', 42]) {
      auth.answer = { status: 200, body: { requestId, waitTime: 120, openid4vpUri } };
      const res = await fetch(`${gateway.url}/demo/api/login-request`, { method: 'POST' });
      expect(await res.json()).toEqual({ requestId, waitTime: 120, qr: expect.any(String) });
    }
  });

  it.each([
    [401, {}, { status: 'pending' }],
    [429, { 'retry-after': '3' }, { status: 'pending', retryAfterSeconds: 3 }],
    [400, {}, { status: 'expired', message: 'gone' }],
  ])('turns auth-service HTTP %i into the page state', async (status, headers, expected) => {
    auth.answer = { status, headers, body: { error: { code: String(status), message: 'gone' } } };
    const res = await poll('http://localhost:8080/demo?requestId=1');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(expected);
    expect(auth.seen.at(-1)?.url).toBe('/v2/auth/auth-user-result-by-app');
  });

  it('hands the user, never the JWT, to the page', async () => {
    auth.answer = {
      status: 200,
      body: { token: 'a.b.c', userId: 'demo', name: 'Demo User', telNo: null, email: 'd@e.f' },
    };
    const res = await poll('http://localhost:8080/demo?requestId=1');
    expect(await res.json()).toEqual({
      status: 'approved',
      user: { userId: 'demo', name: 'Demo User', email: 'd@e.f' },
    });
  });

  it('links the age page from the index; every element its script reads is on the page', async () => {
    const index = await (await fetch(`${gateway.url}/demo`)).text();
    expect(index).toContain('<a href="/demo/age">');
    const page = await (await fetch(`${gateway.url}/demo/age`)).text();
    expect(page).toContain('<h1>Prove you are over 18</h1>');
    const script = await (await fetch(`${gateway.url}/demo/age.js`)).text();
    const read = [...new Set([...script.matchAll(/\$\('([a-z0-9-]+)'\)/g)].map((m) => m[1]))];
    expect(read).toEqual(
      expect.arrayContaining(['start', 'qr', 'oid4vp-uri', 'verdict', 'issuer']),
    );
    expect(read.filter((id) => !page.includes(` id="${id}"`))).toEqual([]);
    // The page talks only to its own site's server, never to auth-service.
    const paths = [...script.matchAll(/'(\/[a-z0-9/-]+)'/g)].map((m) => m[1]);
    expect([...new Set(paths)].sort()).toEqual(['/demo/api/age-request', '/demo/api/age-result']);
  });

  it("starts an age check: the PID age_over_18 query (SD-JWT VC or mdoc) with the client secret; answers the openid4vpUri's QR code", async () => {
    const openid4vpUri =
      'openid4vp://?client_id=x509_san_dns%3Alocalhost' +
      '&request_uri=http%3A%2F%2Flocalhost%3A8080%2Fv2%2Fauth%2Fpresentation-requests%2Fabc%2Frequest';
    auth.answer = {
      status: 200,
      body: { requestId: 'a'.repeat(43), openid4vpUri, expiresInSeconds: 120 },
    };
    const res = await fetch(`${gateway.url}/demo/api/age-request`, { method: 'POST' });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, string>;
    expect(body).toEqual({
      requestId: 'a'.repeat(43),
      openid4vpUri,
      expiresInSeconds: 120,
      qr: expect.stringMatching(/^data:image\/png;base64,/),
    });
    expect(decodeQr(body.qr ?? '')).toBe(openid4vpUri);
    expect(JSON.stringify(body)).not.toContain('demo-site-secret');
    const call = auth.seen.at(-1);
    expect(call?.url).toBe('/v2/auth/presentation-requests');
    expect(call?.headers.authorization).toBe(
      `Basic ${Buffer.from('demo-site:demo-site-secret').toString('base64')}`,
    );
    expect(JSON.parse(call?.body ?? '')).toEqual({
      dcql_query: {
        credentials: [
          {
            id: 'pid-sd-jwt',
            format: 'dc+sd-jwt',
            meta: { vct_values: ['urn:eudi:pid:1'] },
            claims: [{ path: ['age_over_18'] }],
          },
          {
            id: 'pid-mdoc',
            format: 'mso_mdoc',
            meta: { doctype_value: 'eu.europa.ec.eudi.pid.1' },
            claims: [{ path: ['eu.europa.ec.eudi.pid.1', 'age_over_18'] }],
          },
        ],
        credential_sets: [{ options: [['pid-sd-jwt'], ['pid-mdoc']] }],
      },
      purpose: expect.any(String),
      waitTime: 120,
    });
  });

  it('refuses to show anything but an openid4vp:// URI, and says when presentation requests are off', async () => {
    auth.answer = {
      status: 200,
      body: { requestId: 'a'.repeat(43), openid4vpUri: 'javascript:alert(1)', expiresInSeconds: 9 },
    };
    const bad = await fetch(`${gateway.url}/demo/api/age-request`, { method: 'POST' });
    expect({ status: bad.status, body: await bad.json() }).toEqual({
      status: 502,
      body: {
        error: {
          code: '502',
          message: 'auth-service refused the presentation request (HTTP 200: no error message)',
        },
      },
    });
    auth.answer = { status: 404, body: { error: { code: '404', message: 'not enabled' } } };
    const off = await fetch(`${gateway.url}/demo/api/age-request`, { method: 'POST' });
    expect(off.status).toBe(503);
    expect(((await off.json()) as { error: { message: string } }).error.message).toMatch(
      /presentation requests are off on this stack \(not enabled\).*host name/,
    );
  });

  const agePoll = (requestId: unknown) =>
    fetch(`${gateway.url}/demo/api/age-result`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ requestId }),
    });

  it.each([
    [401, {}, {}, { status: 'pending' }],
    [429, {}, { 'retry-after': '2' }, { status: 'pending', retryAfterSeconds: 2 }],
    [400, {}, {}, { status: 'expired', message: 'gone' }],
    [
      200,
      { status: 'declined', error: 'access_denied' },
      {},
      { status: 'not-verified', reason: 'the wallet declined (access_denied)' },
    ],
    [
      200,
      { status: 'refused', error: 'access_denied', rule: 'issuer_untrusted' },
      {},
      {
        status: 'not-verified',
        reason: 'the platform refused the presentation (rule issuer_untrusted)',
      },
    ],
  ])(
    'turns presentation result HTTP %i %j into the age page state',
    async (status, outcome, headers, expected) => {
      auth.answer = {
        status,
        headers,
        body: status === 200 ? outcome : { error: { code: String(status), message: 'gone' } },
      };
      const res = await agePoll('b'.repeat(43));
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual(expected);
      expect(auth.seen.at(-1)?.url).toBe('/v2/auth/presentation-requests/result');
      expect(JSON.parse(auth.seen.at(-1)?.body ?? '')).toEqual({ requestId: 'b'.repeat(43) });
    },
  );

  it('hands the page the verdict, the issuer and the format of a verified PID, never a claim', async () => {
    const verified = (id: string, format: string, claims: unknown) => ({
      status: 'verified',
      credentials: {
        [id]: [{ format, issuer: 'https://issuer.example', claims, status: 'valid' }],
      },
    });
    const cases: Array<[unknown, unknown]> = [
      [
        verified('pid-sd-jwt', 'dc+sd-jwt', { age_over_18: true, given_name: 'Erika' }),
        { status: 'verified', issuer: 'https://issuer.example', format: 'dc+sd-jwt' },
      ],
      [
        verified('pid-mdoc', 'mso_mdoc', {
          'eu.europa.ec.eudi.pid.1': { age_over_18: true, birth_date: '1964-08-12' },
        }),
        { status: 'verified', issuer: 'https://issuer.example', format: 'mso_mdoc' },
      ],
      [
        verified('pid-sd-jwt', 'dc+sd-jwt', { age_over_18: false }),
        { status: 'not-verified', reason: 'the PID says its holder is not over 18' },
      ],
      [
        verified('pid-sd-jwt', 'dc+sd-jwt', { age_over_18: 'true' }),
        { status: 'not-verified', reason: 'the PID did not disclose age_over_18' },
      ],
      [
        { status: 'verified', credentials: {} },
        { status: 'not-verified', reason: 'no PID was presented' },
      ],
    ];
    for (const [outcome, expected] of cases) {
      auth.answer = { status: 200, body: outcome };
      const body = await (await agePoll('c'.repeat(43))).json();
      expect({ outcome, body }).toEqual({ outcome, body: expected });
      expect(JSON.stringify(body)).not.toMatch(/Erika|1964/);
    }
  });

  it('answers 400 for a bad age poll body and 502 when auth-service fails', async () => {
    expect((await agePoll(42)).status).toBe(400);
    expect((await agePoll('')).status).toBe(400);
    auth.answer = { status: 500, body: { error: { code: '500', message: 'boom' } } };
    const res = await agePoll('d'.repeat(43));
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({
      error: { code: '502', message: 'auth-service answered HTTP 500: boom' },
    });
  });

  it('answers 400 for a bad poll body and 502 when auth-service fails', async () => {
    expect((await poll(42)).status).toBe(400);
    auth.answer = { status: 500, body: { error: { code: '500', message: 'boom' } } };
    const res = await poll('http://localhost:8080/demo?requestId=1');
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({
      error: { code: '502', message: 'auth-service answered HTTP 500: boom' },
    });
  });
});

describe('/demo outside development', () => {
  it('is not served (404) in test or production', async () => {
    for (const APP_ENV of ['test', 'production']) {
      const gateway = await startGateway({ APP_ENV, ...upstreams('http://127.0.0.1:9') });
      try {
        for (const path of [
          '/demo',
          '/demo/site',
          '/demo/passkeys',
          '/demo/passkeys.js',
          '/demo/age',
          '/demo/age.js',
        ]) {
          expect((await fetch(`${gateway.url}${path}`)).status).toBe(404);
        }
        for (const path of ['/demo/api/login-request', '/demo/api/age-request']) {
          const res = await fetch(`${gateway.url}${path}`, { method: 'POST' });
          expect(res.status).toBe(404);
        }
      } finally {
        await gateway.close();
      }
    }
  });
});
