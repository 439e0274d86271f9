import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  startEchoUpstream,
  type EchoedRequest,
  type EchoUpstream,
} from './testing/echo-upstream.js';
import { startGateway, type RunningGateway } from './testing/start-gateway.js';

const MIB = 1024 * 1024;

let auth: EchoUpstream;
let did: EchoUpstream;
let token: EchoUpstream;
let block: EchoUpstream;
let gateway: RunningGateway;

beforeAll(async () => {
  [auth, did, token, block] = await Promise.all([
    startEchoUpstream('auth'),
    startEchoUpstream('did'),
    startEchoUpstream('token'),
    startEchoUpstream('block'),
  ]);
  gateway = await startGateway({
    AUTH_SERVICE_URL: auth.url,
    DID_SERVICE_URL: did.url,
    TOKEN_RPC_URL: token.url,
    BLOCK_RPC_URL: block.url,
    CORS_ORIGINS: 'https://app.example',
  });
});

afterAll(async () => {
  await gateway?.close();
  await Promise.all([auth, did, token, block].map((u) => u?.close()));
});

async function echoOf(response: Response): Promise<EchoedRequest> {
  expect(response.status).toBe(200);
  return (await response.json()) as EchoedRequest;
}

function postJson(path: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${gateway.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

/** A request body sent chunked (no Content-Length), in 64 KiB pieces. */
function chunkedBody(total: number, fill = 0x61): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= total) {
        controller.close();
        return;
      }
      const size = Math.min(64 * 1024, total - sent);
      sent += size;
      controller.enqueue(new Uint8Array(size).fill(fill));
    },
  });
}

/** A raw request whose path fetch() would normalise. */
function rawRequest(path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL(gateway.url);
    const req = httpRequest(
      { host: url.hostname, port: url.port, path, method: 'GET', agent: false },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('routing', () => {
  it.each([
    ['POST', '/v2/auth/auth-user', () => auth],
    ['POST', '/v2/auth/.well-known/jwks.json?x=1&y=%20z', () => auth],
    ['GET', '/.well-known/oauth-authorization-server/v2/auth/oidc', () => auth],
    ['GET', '/v2/did/issuers', () => did],
    ['POST', '/v2/did/create-did', () => did],
    ['GET', '/.well-known/openid-credential-issuer/v2/did/oid4vci', () => did],
    ['GET', '/.well-known/oauth-authorization-server/v2/did/oid4vci', () => did],
    // The SD-JWT VC issuer's did:web document (did:web:<host> resolves to <origin>/.well-known/did.json).
    ['GET', '/.well-known/did.json', () => did],
    ['POST', '/token', () => token],
    ['POST', '/token/erc20', () => token],
    ['POST', '/block', () => block],
  ])('%s %s goes to its upstream with the path unchanged', async (method, path, upstream) => {
    const response = await fetch(`${gateway.url}${path}`, {
      method,
      ...(method === 'POST'
        ? { headers: { 'content-type': 'application/json' }, body: '{"a":1}' }
        : {}),
    });
    const echoed = await echoOf(response);
    expect(echoed.upstream).toBe(upstream().name);
    expect(echoed.method).toBe(method);
    expect(echoed.url).toBe(path);
    expect(upstream().requests.at(-1)?.url).toBe(path);
  });

  it.each([
    '/unknown',
    '/v2/auth',
    '/v2/other/x',
    '/token/other',
    '/blocks',
    '/v1/auth/auth-user',
    '/.well-known/openid-credential-issuer',
    '/.well-known/openid-credential-issuer/v2/other',
    '/.well-known/oauth-authorization-server/v2/auth',
    '/.well-known/did.json/x',
    '/.well-known/did.jsonx',
  ])('answers 404 in the REST error shape for %s without forwarding', async (path) => {
    const before = [auth, did, token, block].map((u) => u.requests.length);
    const response = await fetch(`${gateway.url}${path}`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('404');
    expect(typeof body.error.message).toBe('string');
    expect([auth, did, token, block].map((u) => u.requests.length)).toEqual(before);
  });

  it('refuses paths with dot segments (400) instead of forwarding them', async () => {
    const before = auth.requests.length;
    for (const path of ['/v2/auth/../did/issuers', '/v2/auth/%2e%2e/did/issuers']) {
      const { status, body } = await rawRequest(path);
      expect(status).toBe(400);
      expect(JSON.parse(body)).toEqual({ error: { code: '400', message: 'Invalid path' } });
    }
    expect(auth.requests.length).toBe(before);
  });

  it('serves its own API documents: /openapi.json and /docs (the docs router is wired)', async () => {
    const before = [auth, did, token, block].map((u) => u.requests.length);
    const openapi = await fetch(`${gateway.url}/openapi.json`);
    expect(openapi.status).toBe(200);
    const doc = (await openapi.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(Object.keys(doc.paths)).toContain('/v2/auth/auth-user');
    const docs = await fetch(`${gateway.url}/docs`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('swagger-ui');
    expect([auth, did, token, block].map((u) => u.requests.length)).toEqual(before);
  });
});

describe('request id and forwarding headers', () => {
  it('passes a well-formed incoming request id on and echoes it', async () => {
    const response = await postJson('/v2/auth/auth-user', {}, { 'x-request-id': 'client-id-42' });
    const echoed = await echoOf(response);
    expect(echoed.headers['x-request-id']).toBe('client-id-42');
    expect(response.headers.get('x-request-id')).toBe('client-id-42');
  });

  it('makes a request id when none (or a malformed one) comes in and gives the same to the upstream', async () => {
    const cases: Record<string, string>[] = [{}, { 'x-request-id': 'no spaces allowed here' }];
    for (const headers of cases) {
      const response = await postJson('/block', { jsonrpc: '2.0', id: 1, method: 'x' }, headers);
      const echoed = await echoOf(response);
      const id = response.headers.get('x-request-id');
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(echoed.headers['x-request-id']).toBe(id);
    }
  });

  it('rewrites x-forwarded-for (untrusted entries dropped) and sets x-forwarded-proto/host', async () => {
    const response = await postJson(
      '/v2/did/verify-vc',
      {},
      { 'x-forwarded-for': '6.6.6.6', 'x-forwarded-proto': 'https', forwarded: 'for=6.6.6.6' },
    );
    const echoed = await echoOf(response);
    expect(echoed.headers['x-forwarded-for']).toMatch(/^(::ffff:)?127\.0\.0\.1$/);
    expect(echoed.headers['x-forwarded-proto']).toBe('http');
    expect(echoed.headers['x-forwarded-host']).toBe(new URL(gateway.url).host);
    expect(echoed.headers.forwarded).toBeUndefined();
    // Host is the upstream's own (changeOrigin).
    expect(echoed.headers.host).toBe(new URL(did.url).host);
  });

  it('answers with the upstream status and body, keeping the gateway request id', async () => {
    const response = await postJson('/token', { jsonrpc: '2.0', id: 3, method: 'createAddress' });
    const echoed = await echoOf(response);
    expect(echoed.body).toBe('{"jsonrpc":"2.0","id":3,"method":"createAddress"}');
    expect(response.headers.get('x-request-id')).toBe(echoed.headers['x-request-id']);
  });
});

describe('bodies', () => {
  it('passes a JSON body on intact with its content type', async () => {
    const payload = { id: 'demo', password: 'demo-password', nested: { list: [1, 2, 3], s: 'é✓' } };
    const echoed = await echoOf(await postJson('/v2/auth/auth-user', payload));
    expect(echoed.body).toBe(JSON.stringify(payload));
    expect(echoed.headers['content-type']).toBe('application/json');
    expect(echoed.headers['content-length']).toBe(String(Buffer.byteLength(echoed.body ?? '')));
  });

  it('passes a 900 KiB JSON body on intact', async () => {
    const text = JSON.stringify({ data: 'x'.repeat(900 * 1024 - 11) });
    expect(Buffer.byteLength(text)).toBe(900 * 1024);
    const echoed = await echoOf(
      await fetch(`${gateway.url}/v2/did/create-vc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: text,
      }),
    );
    expect(echoed.bodyLength).toBe(900 * 1024);
    expect(echoed.bodySha256).toBe(createHash('sha256').update(text).digest('hex'));
  });

  it('accepts a body of exactly the limit (1 MiB)', async () => {
    const response = await fetch(`${gateway.url}/block`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: Buffer.alloc(MIB, 0x62),
    });
    expect((await echoOf(response)).bodyLength).toBe(MIB);
  });

  it('forwards a chunked body with an exact content-length', async () => {
    const response = await fetch(`${gateway.url}/token/erc20`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: chunkedBody(100_000),
      duplex: 'half',
    } as RequestInit);
    const echoed = await echoOf(response);
    expect(echoed.bodyLength).toBe(100_000);
    expect(echoed.headers['content-length']).toBe('100000');
    expect(echoed.headers['transfer-encoding']).toBeUndefined();
  });

  it('forwards a GET without a body', async () => {
    const echoed = await echoOf(await fetch(`${gateway.url}/v2/did/verifiers`));
    expect(echoed.method).toBe('GET');
    expect(echoed.bodyLength).toBe(0);
    expect(echoed.headers['transfer-encoding']).toBeUndefined();
  });

  it('refuses 1 MiB + 1 byte with Content-Length: 413 in the REST shape, nothing forwarded', async () => {
    const before = auth.requests.length;
    const response = await fetch(`${gateway.url}/v2/auth/auth-user`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: Buffer.alloc(MIB + 1, 0x20),
    });
    expect(response.status).toBe(413);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('413');
    expect(typeof body.error.message).toBe('string');
    expect(auth.requests.length).toBe(before);
  });

  it('refuses 1 MiB + 1 byte sent chunked (no Content-Length) with 413', async () => {
    const before = token.requests.length;
    const response = await fetch(`${gateway.url}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: chunkedBody(MIB + 1),
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('413');
    expect(token.requests.length).toBe(before);
  });
});

describe('security headers and CORS', () => {
  it('sends API security headers and no x-powered-by, also on proxied answers', async () => {
    for (const response of [
      await postJson('/v2/auth/auth-user', {}),
      await fetch(`${gateway.url}/nowhere`),
    ]) {
      expect(response.headers.get('x-powered-by')).toBeNull();
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      expect(response.headers.get('strict-transport-security')).toBeNull();
      await response.arrayBuffer();
    }
  });

  it('answers a preflight from an allowed origin itself (204), without forwarding it', async () => {
    const before = auth.requests.length;
    const response = await fetch(`${gateway.url}/v2/auth/auth-user`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,authorization',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
    expect(response.headers.get('access-control-allow-headers')?.toLowerCase()).toContain(
      'authorization',
    );
    expect(response.headers.get('vary')).toMatch(/origin/i);
    expect(auth.requests.length).toBe(before);
  });

  it("lets a browser wallet send DPoP proofs and read the server's DPoP-Nonce (RFC 9449 §8)", async () => {
    const preflight = await fetch(`${gateway.url}/v2/did/oid4vci/token`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,dpop',
      },
    });
    expect(preflight.status).toBe(204);
    const allowed = (preflight.headers.get('access-control-allow-headers') ?? '').toLowerCase();
    expect(allowed.split(',').map((h) => h.trim())).toContain('dpop');
    const response = await postJson('/v2/did/create-vp', {}, { origin: 'https://app.example' });
    await echoOf(response);
    expect(response.headers.get('access-control-expose-headers')).toMatch(/dpop-nonce/i);
  });

  it('gives an origin that is not allowed no access-control-allow-origin', async () => {
    const response = await fetch(`${gateway.url}/token`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('on actual requests: the gateway CORS headers win over the upstream, Vary is merged', async () => {
    const response = await postJson('/v2/did/create-vp', {}, { origin: 'https://app.example' });
    await echoOf(response);
    expect(response.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(response.headers.get('access-control-expose-headers')).toMatch(/x-request-id/i);
    expect(response.headers.get('access-control-expose-headers')).toMatch(/etag/i);
    expect(response.headers.get('access-control-expose-headers')).toMatch(/www-authenticate/i);
    const vary = (response.headers.get('vary') ?? '').toLowerCase();
    expect(vary).toContain('origin');
    expect(vary).toContain('accept-encoding');

    const other = await postJson('/v2/did/create-vp', {}, { origin: 'https://evil.example' });
    await echoOf(other);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('upstream connections', () => {
  it('reuses keep-alive connections: the upstream sees fewer connections than requests', async () => {
    const requests = 25;
    const before = block.connections();
    for (let i = 0; i < requests; i += 1) {
      await echoOf(await postJson('/block', { jsonrpc: '2.0', id: i, method: 'getBlockNumber' }));
    }
    const opened = block.connections() - before;
    expect(opened).toBeLessThan(requests);
    expect(opened).toBeLessThanOrEqual(1);
  });
});

describe('health', () => {
  it('/health/live answers 200', async () => {
    const response = await fetch(`${gateway.url}/health/live`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'live' });
  });

  it('/health/ready answers 200 when every upstream is ready', async () => {
    const response = await fetch(`${gateway.url}/health/ready`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      status: 'ready',
      checks: { 'auth-service': 'ok', 'did-service': 'ok', 'token-rpc': 'ok', 'block-rpc': 'ok' },
      notReady: [],
    });
  });

  it('/health/ready answers 503 naming the upstream that is not ready, with its report', async () => {
    did.ready = false;
    try {
      const response = await fetch(`${gateway.url}/health/ready`);
      expect(response.status).toBe(503);
      const report = (await response.json()) as {
        status: string;
        checks: Record<string, string>;
        notReady: string[];
      };
      expect(report.status).toBe('not ready');
      expect(report.notReady).toEqual(['did-service']);
      expect(report.checks['did-service']).toBe(
        'error: HTTP 503: not ready: redis (error: connect ECONNREFUSED)',
      );
      expect(report.checks['auth-service']).toBe('ok');
      // The probe Kubernetes uses is self-only: an upstream that is not ready never takes the
      // gateway (and with it password logins) out of rotation.
      const self = await fetch(`${gateway.url}/health/ready/self`);
      expect(self.status).toBe(200);
      expect(await self.json()).toEqual({
        status: 'ready',
        checks: { process: 'ok' },
        notReady: [],
      });
    } finally {
      did.ready = true;
    }
  });
});
