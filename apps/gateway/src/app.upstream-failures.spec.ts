import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { freePort } from '@itp/testing';
import { startEchoUpstream, type EchoUpstream } from './testing/echo-upstream.js';
import { startGateway, type RunningGateway } from './testing/start-gateway.js';

// auth-service and token-rpc are down (nothing listens on their ports); did-service and
// block-rpc are up but answer far later than the gateway's (small) upstream timeout.
const TIMEOUT_MS = 300;

let slowDid: EchoUpstream;
let slowBlock: EchoUpstream;
let gateway: RunningGateway;

beforeAll(async () => {
  [slowDid, slowBlock] = await Promise.all([startEchoUpstream('did'), startEchoUpstream('block')]);
  slowDid.delayMs = 20_000;
  slowBlock.delayMs = 20_000;
  gateway = await startGateway({
    AUTH_SERVICE_URL: `http://127.0.0.1:${await freePort()}`,
    TOKEN_RPC_URL: `http://127.0.0.1:${await freePort()}`,
    DID_SERVICE_URL: slowDid.url,
    BLOCK_RPC_URL: slowBlock.url,
    UPSTREAM_TIMEOUT_MS: String(TIMEOUT_MS),
    UPSTREAM_MAX_SOCKETS: '1',
    READINESS_TIMEOUT_MS: String(TIMEOUT_MS),
  });
});

afterAll(async () => {
  await gateway?.close();
  await Promise.all([slowDid?.close(), slowBlock?.close()]);
});

function post(path: string, body: unknown) {
  return fetch(`${gateway.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

describe('an upstream that is down', () => {
  it('REST path: 502 JSON in the REST error shape', async () => {
    const response = await post('/v2/auth/auth-user', { id: 'demo', password: 'x' });
    expect(response.status).toBe(502);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('x-request-id')).toBeTruthy();
    expect(await response.json()).toEqual({
      error: { code: '502', message: 'auth-service is unavailable' },
    });
  });

  it('JSON-RPC path: 502 with a -32300 transport error envelope carrying the request id', async () => {
    const response = await post('/token', { jsonrpc: '2.0', id: 7, method: 'createAddress' });
    expect(response.status).toBe(502);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const text = 'transport error: token-rpc is unavailable';
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32300, message: text, msg: text },
    });
  });

  it('JSON-RPC batch or unreadable body: the envelope has id null', async () => {
    for (const body of [[{ jsonrpc: '2.0', id: 1, method: 'a' }], 'not json']) {
      const response = await fetch(`${gateway.url}/token/erc20`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
      expect(response.status).toBe(502);
      const envelope = (await response.json()) as { id: unknown; error: { code: number } };
      expect(envelope.id).toBeNull();
      expect(envelope.error.code).toBe(-32300);
    }
  });
});

describe('an upstream that does not answer in time', () => {
  it('REST path: 504 JSON', async () => {
    const response = await post('/v2/did/create-did', { alias: 'a' });
    expect(response.status).toBe(504);
    expect(await response.json()).toEqual({
      error: { code: '504', message: `did-service did not answer within ${TIMEOUT_MS} ms` },
    });
    expect(slowDid.requests.at(-1)?.url).toBe('/v2/did/create-did');
  });

  it('JSON-RPC path: 504 with a -32300 envelope', async () => {
    const response = await post('/block', { jsonrpc: '2.0', id: 'b1', method: 'getBlock' });
    expect(response.status).toBe(504);
    const envelope = (await response.json()) as {
      id: unknown;
      error: { code: number; message: string; msg: string };
    };
    expect(envelope.id).toBe('b1');
    expect(envelope.error.code).toBe(-32300);
    expect(envelope.error.message).toBe(
      `transport error: block-rpc did not answer within ${TIMEOUT_MS} ms`,
    );
    expect(envelope.error.msg).toBe(envelope.error.message);
  });

  it('requests queued for the single pooled connection also get 504, never a hang', async () => {
    const responses = await Promise.all([1, 2, 3].map((i) => post('/v2/did/create-vc', { i })));
    for (const response of responses) {
      expect(response.status).toBe(504);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('504');
    }
  });
});

describe('readiness and metrics', () => {
  it('/health/ready answers 503 naming each upstream that is down', async () => {
    const response = await fetch(`${gateway.url}/health/ready`);
    expect(response.status).toBe(503);
    const report = (await response.json()) as {
      checks: Record<string, string>;
      notReady: string[];
    };
    expect(report.notReady.sort()).toEqual(['auth-service', 'token-rpc']);
    expect(report.checks['auth-service']).toBe('error: unreachable (ECONNREFUSED)');
    expect(report.checks['token-rpc']).toBe('error: unreachable (ECONNREFUSED)');
    // Slow to answer API calls, but their own readiness answers: ready.
    expect(report.checks['did-service']).toBe('ok');
    expect(report.checks['block-rpc']).toBe('ok');
  });

  it('/health/ready answers 503 when an upstream readiness check does not answer in time', async () => {
    slowBlock.readyDelayMs = 20_000;
    try {
      const response = await fetch(`${gateway.url}/health/ready`);
      expect(response.status).toBe(503);
      const report = (await response.json()) as { checks: Record<string, string> };
      expect(report.checks['block-rpc']).toBe(`error: no answer within ${TIMEOUT_MS} ms`);
      expect(report.checks['did-service']).toBe('ok');
    } finally {
      slowBlock.readyDelayMs = 0;
    }
  });

  it('counts the failures it answered itself', async () => {
    const metrics = await (await fetch(`${gateway.metricsUrl}/metrics`)).text();
    // The public port has no /metrics (docs/api.md §1): not served, not proxied.
    const publicMetrics = await fetch(`${gateway.url}/metrics`);
    expect(publicMetrics.status).toBe(404);
    expect(await publicMetrics.text()).not.toMatch(/gateway_upstream_failures_total/);
    expect(metrics).toMatch(
      /gateway_upstream_failures_total\{upstream="auth-service",reason="unavailable"[^}]*\} [1-9]/,
    );
    expect(metrics).toMatch(
      /gateway_upstream_failures_total\{upstream="did-service",reason="timeout"[^}]*\} [1-9]/,
    );
  });
});
