import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  startEchoUpstream,
  type EchoedRequest,
  type EchoUpstream,
} from '../testing/echo-upstream.js';
import { startGateway, type RunningGateway } from '../testing/start-gateway.js';

// The gateway behind a trusted proxy on loopback (TRUST_PROXY=loopback): the test client plays
// that proxy. Without TRUST_PROXY (the default) see app.spec.ts: client-sent entries are dropped.
let upstream: EchoUpstream;
let gateway: RunningGateway;

beforeAll(async () => {
  upstream = await startEchoUpstream('auth');
  gateway = await startGateway({
    AUTH_SERVICE_URL: upstream.url,
    DID_SERVICE_URL: upstream.url,
    TOKEN_RPC_URL: upstream.url,
    BLOCK_RPC_URL: upstream.url,
    TRUST_PROXY: 'loopback',
  });
});

afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
});

describe('forwarding headers behind a trusted proxy', () => {
  it('keeps what the trusted proxy reports, drops what it does not vouch for', async () => {
    const response = await fetch(`${gateway.url}/v2/auth/auth-user`, {
      method: 'POST',
      headers: {
        'x-forwarded-for': '198.51.100.1, 203.0.113.7',
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'api.example',
      },
      body: '{}',
    });
    expect(response.status).toBe(200);
    const echoed = (await response.json()) as EchoedRequest;
    // 203.0.113.7 is what the trusted (loopback) proxy saw; 198.51.100.1 came from the client
    // and nobody trusted vouches for it.
    expect(echoed.headers['x-forwarded-for']).toMatch(/^203\.0\.113\.7, (::ffff:)?127\.0\.0\.1$/);
    expect(echoed.headers['x-forwarded-proto']).toBe('https');
    expect(echoed.headers['x-forwarded-host']).toBe('api.example');
  });

  it('never forwards a client trace context (traceparent, tracestate, baggage)', async () => {
    const response = await fetch(`${gateway.url}/v2/auth/auth-user`, {
      method: 'POST',
      headers: {
        traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
        tracestate: 'vendor=forced',
        baggage: 'user=mallory',
      },
      body: '{}',
    });
    expect(response.status).toBe(200);
    const echoed = (await response.json()) as EchoedRequest;
    expect(echoed.headers['traceparent']).toBeUndefined();
    expect(echoed.headers['tracestate']).toBeUndefined();
    expect(echoed.headers['baggage']).toBeUndefined();
  });
});

describe('forwarding headers behind exactly one trusted hop (TRUST_PROXY=1, the Kubernetes default)', () => {
  let oneHop: RunningGateway;
  beforeAll(async () => {
    oneHop = await startGateway({
      AUTH_SERVICE_URL: upstream.url,
      DID_SERVICE_URL: upstream.url,
      TOKEN_RPC_URL: upstream.url,
      BLOCK_RPC_URL: upstream.url,
      TRUST_PROXY: '1',
    });
  });
  afterAll(async () => {
    await oneHop?.close();
  });

  it("keeps the ingress's entry and drops what the client forged before it", async () => {
    // The client wrote 198.51.100.66; the ingress (this test's connection) appended the address
    // it saw, 203.0.113.9. Only that one is vouched for: the rate limits count it, not the forgery.
    const response = await fetch(`${oneHop.url}/v2/auth/auth-user`, {
      method: 'POST',
      headers: { 'x-forwarded-for': '198.51.100.66, 203.0.113.9' },
      body: '{}',
    });
    const echoed = (await response.json()) as EchoedRequest;
    expect(echoed.headers['x-forwarded-for']).toMatch(/^203\.0\.113\.9, (::ffff:)?127\.0\.0\.1$/);
    expect(echoed.headers['x-forwarded-for']).not.toContain('198.51.100.66');
  });
});
