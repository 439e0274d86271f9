import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CookieJar, closePlainPools } from '@itp/testing/cookie-jar';
import {
  FLOW_STEPS,
  discover,
  environmentOf,
  formAction,
  jwtPayload,
  passwordFlow,
  pkcePair,
  rebase,
  s256,
  type OidcClient,
} from './oidc-flow.js';

describe('oidc-flow helpers', () => {
  it('makes PKCE S256 pairs as RFC 7636 does (appendix B)', () => {
    expect(s256('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
    const { verifier, challenge } = pkcePair();
    expect(verifier).toMatch(/^[\w-]{43}$/);
    expect(challenge).toBe(s256(verifier));
    expect(pkcePair().verifier).not.toBe(verifier);
  });

  it('rebases PUBLIC_URL onto the gateway, resolves relative URLs, leaves other origins', () => {
    const gw = 'http://127.0.0.1:9';
    const pub = 'https://id.example';
    expect(rebase('https://id.example/v2/auth/oidc/auth/x?a=1', pub, pub, gw)).toBe(
      'http://127.0.0.1:9/v2/auth/oidc/auth/x?a=1',
    );
    expect(rebase('../auth/x', `${gw}/v2/auth/oidc/interaction/u`, pub, gw)).toBe(
      'http://127.0.0.1:9/v2/auth/oidc/auth/x',
    );
    expect(rebase('https://site.example/cb?code=1', pub, pub, gw)).toBe(
      'https://site.example/cb?code=1',
    );
  });

  it('keeps cookies, replaces them, and drops expired or emptied ones', () => {
    const jar = new CookieJar();
    const headers = (...cookies: string[]) => {
      const h = new Headers();
      for (const c of cookies) h.append('set-cookie', c);
      return h;
    };
    jar.keep(headers('_a=1; path=/x; httponly', '_b=2; path=/', '_c=3'));
    expect(jar.header()).toBe('_a=1; _b=2; _c=3');
    jar.keep(
      headers('_a=; path=/x', '_b=4', '_c=3; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/'),
    );
    expect(jar.header()).toBe('_b=4');
  });

  it('sends with request what fetch sends that the provider reads, and keeps the same cookies', async () => {
    const seen: Array<Record<string, string | undefined>> = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const h = req.headers;
        seen.push({
          request: `${req.method} ${req.url}`,
          cookie: h.cookie || undefined,
          origin: h.origin,
          type: h['content-type'],
          authorization: h.authorization,
          body: Buffer.concat(chunks).toString(),
        });
        res.writeHead(303, {
          location: '/next',
          'set-cookie': h.cookie ? ['_a=; path=/x'] : ['_a=1; path=/x', '_b=2'],
        });
        res.end('moved');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2/x?y=1`;
    const post = {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'https://id.example',
        authorization: 'Basic eDp5',
      },
      body: 'id=demo&password=pw',
    };
    try {
      const fetched = new CookieJar();
      const requested = new CookieJar();
      const a = await fetched.fetch(url, post);
      const b = await requested.request(url, post);
      expect([b.status, b.header('location'), await b.text()]).toEqual([
        a.status,
        a.headers.get('location'),
        await a.text(),
      ]);
      expect(requested.header()).toBe('_a=1; _b=2');
      await (await fetched.fetch(url)).arrayBuffer();
      await (await requested.request(url)).drain();
      expect(requested.header()).toBe(fetched.header());
      expect(requested.header()).toBe('_b=2');
      // fetch sends an empty Cookie header while its jar is empty, request none: the same to the
      // provider (no cookie).
      expect(seen[1]).toEqual(seen[0]);
      expect(seen[3]).toEqual(seen[2]);
      expect(seen[0]).toEqual({
        request: 'POST /v2/x?y=1',
        cookie: undefined,
        origin: 'https://id.example',
        type: 'application/x-www-form-urlencoded',
        authorization: 'Basic eDp5',
        body: 'id=demo&password=pw',
      });
      expect(seen[2]).toMatchObject({ request: 'GET /v2/x?y=1', cookie: '_a=1; _b=2', body: '' });
    } finally {
      await closePlainPools();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('reads the password form’s action and a JWT’s payload', () => {
    expect(formAction('<p><form method="post" action="abc-1/login"><input></form>')).toBe(
      'abc-1/login',
    );
    expect(() => formAction('<form action="x">')).toThrow(/no password form/);
    const jwt = `e30.${Buffer.from('{"sub":"demo"}').toString('base64url')}.sig`;
    expect(jwtPayload(jwt)).toEqual({ sub: 'demo' });
  });

  it('reads the environment of a process from /proc', () => {
    expect(environmentOf(process.pid).PATH).toBe(process.env.PATH);
  });
});

/**
 * A stand-in provider with the shapes of auth-service's answers: URLs named by another origin
 * (PUBLIC_URL), path-scoped cookies, the Origin check of the form post, PKCE at the token
 * endpoint. The real provider is covered by the smoke run (e2e/src/dev-suites/bench-smoke.suite.ts:
 * scenario 8 against the dev stack).
 */
describe('passwordFlow against a stand-in provider', () => {
  const PUBLIC = 'https://id.example';
  const ISSUER = `${PUBLIC}/v2/auth/oidc`;
  const client: OidcClient = {
    id: 'site',
    secret: 'site-secret-123',
    redirectUri: 'https://site.example/cb',
  };
  let server: Server;
  let gateway: string;
  let tokenRequests = 0;
  const flows = new Map<
    string,
    { challenge: string; state: string; nonce: string; code?: string; user?: string }
  >();

  const body = async (req: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return new URLSearchParams(Buffer.concat(chunks).toString());
  };

  beforeAll(async () => {
    server = createServer((req, res) => {
      void (async () => {
        const url = new URL(req.url ?? '/', 'http://x');
        const path = url.pathname.replace('/v2/auth/oidc', '');
        const cookie = req.headers.cookie ?? '';
        const redirect = (location: string, cookies: string[] = []) => {
          res.writeHead(303, { location, 'set-cookie': cookies }).end();
        };
        if (path === '/.well-known/openid-configuration') {
          res.setHeader('content-type', 'application/json');
          res.end(
            JSON.stringify({
              issuer: ISSUER,
              authorization_endpoint: `${ISSUER}/auth`,
              token_endpoint: `${ISSUER}/token`,
            }),
          );
          return;
        }
        if (path === '/auth') {
          const q = url.searchParams;
          if (
            q.get('client_id') !== client.id ||
            q.get('redirect_uri') !== client.redirectUri ||
            q.get('code_challenge_method') !== 'S256'
          ) {
            res.writeHead(400).end();
            return;
          }
          const uid = `u${flows.size}`;
          flows.set(uid, {
            challenge: q.get('code_challenge')!,
            state: q.get('state')!,
            nonce: q.get('nonce')!,
          });
          redirect(`/v2/auth/oidc/interaction/${uid}`, [
            `_interaction=${uid}; path=/v2/auth/oidc/interaction/${uid}; httponly`,
          ]);
          return;
        }
        const page = /^\/interaction\/(\w+)$/.exec(path);
        if (page && req.method === 'GET') {
          const ok = cookie.includes(`_interaction=${page[1]}`);
          res.writeHead(ok ? 200 : 400, { 'content-type': 'text/html' });
          res.end(`<form method="post" action="${page[1]}/login"><input name="id"></form>`);
          return;
        }
        const post = /^\/interaction\/(\w+)\/login$/.exec(path);
        if (post && req.method === 'POST') {
          const form = await body(req);
          const flow = flows.get(post[1]!);
          if (req.headers.origin !== PUBLIC || !cookie.includes(`_interaction=${post[1]}`)) {
            res.writeHead(403).end();
          } else if (!flow || form.get('password') !== 'pw') {
            res.writeHead(401, { 'content-type': 'text/html' }).end('Invalid id or password');
          } else {
            flow.user = form.get('id')!;
            redirect(`${ISSUER}/auth/${post[1]}`, [
              `_interaction=; path=/v2/auth/oidc/interaction/${post[1]}; expires=Thu, 01 Jan 1970 00:00:00 GMT`,
              `_resume=${post[1]}; path=/v2/auth/oidc/auth/${post[1]}`,
            ]);
          }
          return;
        }
        const resume = /^\/auth\/(\w+)$/.exec(path);
        if (resume) {
          const flow = flows.get(resume[1]!)!;
          if (!cookie.includes(`_resume=${resume[1]}`) || cookie.includes('_interaction')) {
            res.writeHead(400).end();
            return;
          }
          flow.code = `code-${resume[1]}`;
          redirect(`${client.redirectUri}?code=${flow.code}&state=${flow.state}&iss=x`);
          return;
        }
        if (path === '/token' && req.method === 'POST') {
          tokenRequests += 1;
          const form = await body(req);
          const basic = `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`;
          const flow = [...flows.values()].find((f) => f.code === form.get('code'));
          if (
            req.headers.authorization !== basic ||
            req.headers.cookie ||
            !flow ||
            s256(form.get('code_verifier') ?? '') !== flow.challenge ||
            form.get('redirect_uri') !== client.redirectUri
          ) {
            res.writeHead(400, { 'content-type': 'application/json' });
            res.end('{"error":"invalid_grant"}');
            return;
          }
          const claims = { sub: flow.user, aud: client.id, nonce: flow.nonce };
          const idToken = `e30.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.sig`;
          res.setHeader('content-type', 'application/json');
          res.end(JSON.stringify({ access_token: 'at', id_token: idToken }));
          return;
        }
        res.writeHead(404).end();
      })();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    gateway = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await closePlainPools();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('logs in: authorization → page → form post → code → token, one time per step', async () => {
    const endpoints = await discover(gateway);
    expect(endpoints).toEqual({
      issuer: ISSUER,
      publicOrigin: PUBLIC,
      authorization: `${gateway}/v2/auth/oidc/auth`,
      token: `${gateway}/v2/auth/oidc/token`,
    });
    const times = await passwordFlow(gateway, endpoints, client, { id: 'demo', password: 'pw' });
    expect(times).toHaveLength(FLOW_STEPS.length);
    for (const ms of times) expect(ms).toBeGreaterThanOrEqual(0);
    expect(tokenRequests).toBe(1);
  });

  it('fails a flow whose password is refused, or whose token is refused', async () => {
    const endpoints = await discover(gateway);
    await expect(
      passwordFlow(gateway, endpoints, client, { id: 'demo', password: 'wrong' }),
    ).rejects.toThrow('form post: HTTP 401, no redirect');
    await expect(
      passwordFlow(
        gateway,
        endpoints,
        { ...client, secret: 'another-secret' },
        { id: 'demo', password: 'pw' },
      ),
    ).rejects.toThrow(/token request: HTTP 400 .*invalid_grant/);
  });
});
