import {
  request as httpRequest,
  createServer,
  type IncomingHttpHeaders,
  type Server,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import type { Request, Response } from 'express';
import { startGateway, type RunningGateway } from '../testing/start-gateway.js';
import { DEMO_OIDC_COOKIE, DemoOidcSessions, cookieValue } from './demo-oidc-sessions.js';
import { DEMO_CSP, demoIssuer } from './demo-router.js';

/**
 * /demo/oidc's server side against a scripted OpenID Connect provider (discovery, JWKS, token,
 * userinfo answered here, the id_token signed with a key of this test): the cookie and what it
 * keeps server-side, the redirects, the claims page and every failure as a readable page. The
 * flow against the real provider in a browser is e2e/src/dev-suites/demo-browser.suite.ts.
 */
interface Provider {
  issuer: string;
  server: Server;
  key: CryptoKey;
  jwk: JWK;
  /** The token endpoint's answer: `undefined` issues tokens for `nonce`. */
  tokenAnswer?: { status: number; body: unknown; headers?: Record<string, string> };
  nonce: string;
  subject: string;
  tokenRequests: URLSearchParams[];
}

async function scriptedProvider(): Promise<Provider> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const p = {
    key: privateKey,
    jwk: { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' },
    nonce: '',
    subject: 'demo',
    tokenRequests: [],
  } as unknown as Provider;
  p.server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      void answer(req.url ?? '', body).then(({ status, json, headers }) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(json));
      });
    });
  });
  const answer = async (
    url: string,
    body: string,
  ): Promise<{ status: number; json: unknown; headers?: Record<string, string> }> => {
    const path = url.replace(/\?.*/, '');
    if (path === '/v2/auth/oidc/.well-known/openid-configuration') {
      return {
        status: 200,
        json: {
          issuer: p.issuer,
          authorization_endpoint: `${p.issuer}/auth`,
          token_endpoint: `${p.issuer}/token`,
          userinfo_endpoint: `${p.issuer}/me`,
          end_session_endpoint: `${p.issuer}/session/end`,
          jwks_uri: `${p.issuer}/jwks`,
          id_token_signing_alg_values_supported: ['ES256'],
          code_challenge_methods_supported: ['S256'],
        },
      };
    }
    if (path === '/v2/auth/oidc/jwks') return { status: 200, json: { keys: [p.jwk] } };
    if (path === '/v2/auth/oidc/token') {
      p.tokenRequests.push(new URLSearchParams(body));
      if (p.tokenAnswer) {
        const { status, body: json, headers } = p.tokenAnswer;
        return { status, json, ...(headers ? { headers } : {}) };
      }
      const idToken = await new SignJWT({ nonce: p.nonce, amr: ['pwd'], auth_time: 1 })
        .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
        .setIssuer(p.issuer)
        .setAudience('demo-site')
        .setSubject(p.subject)
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(p.key);
      return {
        status: 200,
        json: { access_token: 'at-1', token_type: 'Bearer', expires_in: 60, id_token: idToken },
      };
    }
    if (path === '/v2/auth/oidc/me') {
      return {
        status: 200,
        json: { sub: p.subject, name: 'Demo <b>User</b>', email: 'demo@example.com' },
      };
    }
    return { status: 404, json: {} };
  };
  await new Promise<void>((resolve) => p.server.listen(0, '127.0.0.1', resolve));
  p.issuer = `http://127.0.0.1:${(p.server.address() as AddressInfo).port}/v2/auth/oidc`;
  return p;
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/** A GET that follows no redirect, with the Host header a browser would send (fetch cannot). */
function get(base: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { headers }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end();
  });
}

const upstreams = {
  AUTH_SERVICE_URL: 'http://127.0.0.1:9',
  DID_SERVICE_URL: 'http://127.0.0.1:9',
  TOKEN_RPC_URL: 'http://127.0.0.1:9',
  BLOCK_RPC_URL: 'http://127.0.0.1:9',
};

/** The session cookie a response set (`demo_oidc=<id>`), to send back. */
const sessionCookie = (answer: Answer): string =>
  (answer.headers['set-cookie'] ?? [])
    .map((c) => c.split(';')[0] ?? '')
    .find((c) => c.startsWith(`${DEMO_OIDC_COOKIE}=`)) ?? '';

describe('/demo/oidc (gateway, development mode, scripted provider)', () => {
  let provider: Provider;
  let gateway: RunningGateway;
  let host: string;
  beforeAll(async () => {
    provider = await scriptedProvider();
    gateway = await startGateway({
      APP_ENV: 'development',
      PUBLIC_URL: new URL(provider.issuer).origin,
      ...upstreams,
    });
    host = new URL(gateway.url).host.replace('127.0.0.1', 'localhost');
  });
  afterAll(async () => {
    await gateway.close();
    await new Promise((resolve) => provider.server.close(resolve));
  });
  beforeEach(() => {
    provider.tokenAnswer = undefined;
    provider.subject = 'demo';
  });

  /** /demo/oidc/login as a browser at http://localhost:<port>: the redirect and the cookie. */
  const startLogin = async () => {
    const answer = await get(gateway.url, '/demo/oidc/login', { host });
    expect(answer.status).toBe(302);
    const location = new URL(answer.headers.location ?? '');
    provider.nonce = location.searchParams.get('nonce') ?? '';
    return { answer, location, cookie: sessionCookie(answer) };
  };
  const callback = (query: Record<string, string>, cookie: string) =>
    get(gateway.url, `/demo/oidc/callback?${new URLSearchParams(query).toString()}`, {
      host,
      cookie,
    });

  it('serves the start page under the demo CSP, linked from /demo', async () => {
    const page = await get(gateway.url, '/demo/oidc');
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toBe(DEMO_CSP);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.text).toContain('<a id="login" class="button" href="/demo/oidc/login">');
    expect(page.text).not.toMatch(/<script>|\sstyle=/);
    expect((await get(gateway.url, '/demo')).text).toContain('<a href="/demo/oidc">');
  });

  it('redirects to the authorization endpoint with PKCE S256, state and nonce kept server-side', async () => {
    const { answer, location, cookie } = await startLogin();
    expect(`${location.origin}${location.pathname}`).toBe(`${provider.issuer}/auth`);
    const params = Object.fromEntries(location.searchParams);
    expect(params).toEqual({
      client_id: 'demo-site',
      response_type: 'code',
      redirect_uri: `http://${host}/demo/oidc/callback`,
      scope: 'openid profile email phone',
      code_challenge: expect.stringMatching(/^[\w-]{43}$/),
      code_challenge_method: 'S256',
      state: expect.stringMatching(/^[\w-]{43}$/),
      nonce: expect.stringMatching(/^[\w-]{43}$/),
    });
    const setCookie = answer.headers['set-cookie']?.join('\n') ?? '';
    expect(setCookie).toMatch(/^demo_oidc=[\w-]{43}; Max-Age=1800; Path=\/demo\/oidc; Expires=/);
    expect(setCookie).toContain('; HttpOnly; SameSite=Lax');
    expect(setCookie).not.toContain('Secure');
    // Nothing of the flow is in the cookie: only a random id.
    expect(cookie).not.toContain(params.state);
    // The browser's other loopback name gets its own redirect URI.
    const other = await get(gateway.url, '/demo/oidc/login', {
      host: new URL(gateway.url).host,
    });
    expect(new URL(other.headers.location ?? '').searchParams.get('redirect_uri')).toBe(
      `${gateway.url}/demo/oidc/callback`,
    );
  });

  it('refuses to start at a host that is not a registered redirect URI host (400 page)', async () => {
    const page = await get(gateway.url, '/demo/oidc/login', { host: 'evil.example:8080' });
    expect(page.status).toBe(400);
    expect(page.text).toContain('Open this demo at localhost or 127.0.0.1');
    expect(page.headers['set-cookie']).toBeUndefined();
  });

  it('logs in: code → tokens (code_verifier sent) → userinfo; the claims are shown escaped', async () => {
    const { location, cookie } = await startLogin();
    const state = location.searchParams.get('state') ?? '';
    const page = await callback({ code: 'code-1', state }, cookie);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Logged in as <code id="subject">demo</code>');
    expect(page.text).toContain('<tr><th>amr</th><td>[&quot;pwd&quot;]</td></tr>');
    expect(page.text).toContain('<tr><th>name</th><td>Demo &lt;b&gt;User&lt;/b&gt;</td></tr>');
    expect(page.text).toContain('<a id="logout" class="button" href="/demo/oidc/logout">');
    const token = provider.tokenRequests.at(-1);
    expect(token?.get('grant_type')).toBe('authorization_code');
    expect(token?.get('code')).toBe('code-1');
    expect(token?.get('redirect_uri')).toBe(`http://${host}/demo/oidc/callback`);
    expect(token?.get('code_verifier')).toMatch(/^[\w-]{43}$/);
    expect(token?.get('client_id')).toBe('demo-site');

    // The site's session: /demo/oidc shows who is logged in; the same answer is used once.
    expect((await get(gateway.url, '/demo/oidc', { host, cookie })).text).toContain(
      '<code id="subject">demo</code>',
    );
    const again = await callback({ code: 'code-1', state }, cookie);
    expect(again.status).toBe(400);
    expect(again.text).toContain('No login is in progress');

    // Logout: the session ends, the browser goes to end_session with the id_token and back URI.
    const logout = await get(gateway.url, '/demo/oidc/logout', { host, cookie });
    expect(logout.status).toBe(302);
    const end = new URL(logout.headers.location ?? '');
    expect(`${end.origin}${end.pathname}`).toBe(`${provider.issuer}/session/end`);
    expect(end.searchParams.get('post_logout_redirect_uri')).toBe(`http://${host}/demo/oidc`);
    expect(end.searchParams.get('id_token_hint')).toMatch(/^ey/);
    expect(end.searchParams.get('client_id')).toBe('demo-site');
    expect(logout.headers['set-cookie']?.join()).toMatch(
      /^demo_oidc=; Path=\/demo\/oidc; Expires=/,
    );
    expect((await get(gateway.url, '/demo/oidc', { host, cookie })).text).toContain(
      'href="/demo/oidc/login"',
    );
    const loggedOut = await get(gateway.url, '/demo/oidc/logout', { host, cookie });
    expect(loggedOut.headers.location).toBe('/demo/oidc');
  });

  it('shows a callback without a login in progress as a 400 page, the provider untouched', async () => {
    const before = provider.tokenRequests.length;
    for (const cookie of ['', `${DEMO_OIDC_COOKIE}=unknown`]) {
      const page = await callback({ code: 'c', state: 's' }, cookie);
      expect(page.status).toBe(400);
      expect(page.headers['content-security-policy']).toBe(DEMO_CSP);
      expect(page.text).toContain('No login is in progress in this browser');
    }
    expect(provider.tokenRequests.length).toBe(before);
  });

  it('refuses a wrong or missing state (400 page), and the login in progress is then over', async () => {
    const queries: Array<Record<string, string>> = [
      { code: 'c', state: 'not-the-state' },
      { code: 'c' },
    ];
    for (const query of queries) {
      const { cookie } = await startLogin();
      const before = provider.tokenRequests.length;
      const page = await callback(query, cookie);
      expect(page.status).toBe(400);
      expect(page.text).toContain('was not accepted');
      expect(page.text).toContain('&quot;state&quot;');
      expect(provider.tokenRequests.length).toBe(before);
      expect((await callback(query, cookie)).text).toContain('No login is in progress');
    }
  });

  it("shows the provider's refusals (authorization error, invalid_grant) as 400 pages, escaped", async () => {
    let { location, cookie } = await startLogin();
    const page = await callback(
      {
        error: 'access_denied',
        error_description: '<script>alert(1)</script>',
        state: location.searchParams.get('state') ?? '',
      },
      cookie,
    );
    expect(page.status).toBe(400);
    expect(page.text).toContain(
      'The provider refused the login (access_denied: &lt;script&gt;alert(1)&lt;/script&gt;).',
    );

    ({ location, cookie } = await startLogin());
    provider.tokenAnswer = {
      status: 400,
      body: { error: 'invalid_grant', error_description: 'grant request is invalid' },
    };
    const refused = await callback(
      { code: 'used', state: location.searchParams.get('state') ?? '' },
      cookie,
    );
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('(invalid_grant: grant request is invalid)');
  });

  it("shows the provider's refusal of the site itself (401 invalid_client with its WWW-Authenticate challenge) as a readable page", async () => {
    const { location, cookie } = await startLogin();
    provider.tokenAnswer = {
      status: 401,
      body: { error: 'invalid_client', error_description: 'client authentication failed' },
      headers: { 'www-authenticate': 'Basic realm="issuer", error="invalid_client"' },
    };
    const refused = await callback(
      { code: 'c', state: location.searchParams.get('state') ?? '' },
      cookie,
    );
    expect(refused.status).toBe(400);
    expect(refused.text).toContain(
      'The provider refused the demo site&#39;s own credentials (invalid_client)',
    );
  });

  it('refuses an id_token for another nonce (400 page, not logged in)', async () => {
    const { location, cookie } = await startLogin();
    provider.nonce = 'another-nonce';
    const page = await callback(
      { code: 'c', state: location.searchParams.get('state') ?? '' },
      cookie,
    );
    expect(page.status).toBe(400);
    expect(page.text).toContain('nonce');
    expect((await get(gateway.url, '/demo/oidc', { host, cookie })).text).not.toContain(
      'id="subject"',
    );
  });
});

describe('/demo/oidc without its provider', () => {
  it('answers a readable 502 page when discovery fails, and tries again next time', async () => {
    const gateway = await startGateway({
      APP_ENV: 'development',
      PUBLIC_URL: 'http://127.0.0.1:9',
      ...upstreams,
    });
    try {
      for (let i = 0; i < 2; i++) {
        const page = await get(gateway.url, '/demo/oidc/login');
        expect(page.status).toBe(502);
        expect(page.headers['content-type']).toMatch(/^text\/html/);
        expect(page.text).toContain(
          'The OpenID Connect provider at http://127.0.0.1:9/v2/auth/oidc cannot be reached',
        );
        expect(page.text).not.toMatch(/\n\s+at /);
      }
    } finally {
      await gateway.close();
    }
  });

  it('is not served outside development (404)', async () => {
    const gateway = await startGateway({ APP_ENV: 'production', ...upstreams });
    try {
      for (const path of ['/demo/oidc', '/demo/oidc/login', '/demo/oidc/callback']) {
        expect((await get(gateway.url, path)).status).toBe(404);
      }
    } finally {
      await gateway.close();
    }
  });

  it("takes the issuer from the gateway's PUBLIC_URL, else 127.0.0.1 and its port", () => {
    expect(demoIssuer({ PUBLIC_URL: 'https://itp.example', PORT: 8080 })).toBe(
      'https://itp.example/v2/auth/oidc',
    );
    expect(demoIssuer({ PUBLIC_URL: undefined, PORT: 8080 })).toBe(
      'http://127.0.0.1:8080/v2/auth/oidc',
    );
  });
});

describe('DemoOidcSessions', () => {
  const request = (cookie?: string) => ({ headers: { cookie }, secure: false }) as Request;
  const response = () => {
    const set: string[] = [];
    const res = {
      cookie: (_name: string, value: string) => void set.push(value),
      clearCookie: () => undefined,
    } as unknown as Response;
    return { res, set };
  };
  const pending = { verifier: 'v', state: 's', nonce: 'n', redirectUri: 'http://localhost/cb' };

  it('keeps a session for its TTL only', () => {
    let now = 0;
    const sessions = new DemoOidcSessions(1000, 10, () => now);
    const { res, set } = response();
    sessions.start(request(), res, { pending });
    const cookie = `${DEMO_OIDC_COOKIE}=${set[0]}`;
    expect(sessions.get(request(cookie))?.pending).toEqual(pending);
    now = 999;
    expect(sessions.get(request(cookie))).toBeDefined();
    now = 1000;
    expect(sessions.get(request(cookie))).toBeUndefined();
    expect(sessions.size).toBe(0);
  });

  it('holds at most maxEntries sessions, dropping the oldest', () => {
    const sessions = new DemoOidcSessions(60_000, 3);
    const { res, set } = response();
    for (let i = 0; i < 5; i++) sessions.start(request(), res, { pending });
    expect(sessions.size).toBe(3);
    expect(sessions.get(request(`${DEMO_OIDC_COOKIE}=${set[0]}`))).toBeUndefined();
    expect(sessions.get(request(`${DEMO_OIDC_COOKIE}=${set[4]}`))).toBeDefined();
  });

  it('replaces the browser’s own session when it starts another', () => {
    const sessions = new DemoOidcSessions();
    const { res, set } = response();
    sessions.start(request(), res, { pending });
    sessions.start(request(`a=b; ${DEMO_OIDC_COOKIE}=${set[0]}`), res, { pending });
    expect(sessions.size).toBe(1);
  });

  it('reads its cookie from a Cookie header', () => {
    expect(cookieValue('a=1; demo_oidc=xyz; b=2', 'demo_oidc')).toBe('xyz');
    expect(cookieValue('xdemo_oidc=1', 'demo_oidc')).toBeUndefined();
    expect(cookieValue(undefined, 'demo_oidc')).toBeUndefined();
    expect(cookieValue('demo_oidc=', 'demo_oidc')).toBeUndefined();
  });
});
