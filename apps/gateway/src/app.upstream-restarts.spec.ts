import { Agent, request } from 'node:http';
import { afterEach, describe, expect, it } from '@jest/globals';
import { pino } from 'pino';
import { HttpService } from '@itp/service-kit';
import { waitFor } from '@itp/testing';
import { startEchoUpstream, type EchoUpstream } from './testing/echo-upstream.js';
import { startGateway, type RunningGateway } from './testing/start-gateway.js';

// Real upstreams that go away and come back while the gateway runs: an upstream that
// is stopped and restarted on the same port, one that drops a connection before answering, and
// a service-kit upstream that shuts down gracefully while the gateway forwards load to it.

let upstreams: EchoUpstream[] = [];
let extra: Array<{ close(): Promise<void> }> = [];
let gateway: RunningGateway | undefined;

afterEach(async () => {
  await gateway?.close();
  await Promise.all([...upstreams, ...extra].map((u) => u.close()));
  gateway = undefined;
  upstreams = [];
  extra = [];
});

async function startStack(auth?: string) {
  const [authEcho, did, token, block] = await Promise.all(
    ['auth', 'did', 'token', 'block'].map((name) => startEchoUpstream(name)),
  );
  upstreams = [authEcho!, did!, token!, block!];
  gateway = await startGateway({
    AUTH_SERVICE_URL: auth ?? authEcho!.url,
    DID_SERVICE_URL: did!.url,
    TOKEN_RPC_URL: token!.url,
    BLOCK_RPC_URL: block!.url,
    UPSTREAM_TIMEOUT_MS: '5000',
  });
  return { gateway, did: did!, token: token! };
}

const rpcBody = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'createAddress' });

function postRpc(url: string, id: number) {
  return fetch(`${url}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: rpcBody(id),
  });
}

async function retriesMetric(metricsUrl: string, upstream: string, reason: string) {
  const text = await (await fetch(`${metricsUrl}/metrics`)).text();
  const line = text
    .split('\n')
    .find(
      (l) =>
        l.startsWith('gateway_upstream_retries_total{') &&
        l.includes(`upstream="${upstream}"`) &&
        l.includes(`reason="${reason}"`),
    );
  return line ? Number(line.split(' ').at(-1)) : 0;
}

describe('an upstream that is stopped and restarted', () => {
  it('is answered 502 in the documented shapes while down, and served again once back', async () => {
    const { gateway, did, token } = await startStack();
    // Keep-alive connections to both upstreams are in the gateway's pool now.
    expect((await fetch(`${gateway.url}/v2/did/issuers`)).status).toBe(200);
    expect((await postRpc(gateway.url, 1)).status).toBe(200);

    await Promise.all([did.close(), token.close()]);
    // Let the gateway's pool see those connections close (a request racing the close is the
    // next test's case). Kept as a pause: the gateway's undici pool is not observable from here.
    await new Promise((resolve) => setTimeout(resolve, 100));

    const rest = await fetch(`${gateway.url}/v2/did/issuers`);
    expect(rest.status).toBe(502);
    expect(rest.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await rest.json()).toEqual({
      error: { code: '502', message: 'did-service is unavailable' },
    });
    const rpc = await postRpc(gateway.url, 2);
    expect(rpc.status).toBe(502);
    const text = 'transport error: token-rpc is unavailable';
    expect(await rpc.json()).toEqual({
      jsonrpc: '2.0',
      id: 2,
      error: { code: -32300, message: text, msg: text },
    });
    // Both were tried a second time: a refused connection means nothing was sent.
    expect(await retriesMetric(gateway.metricsUrl, 'did-service', 'ECONNREFUSED')).toBe(1);
    expect(await retriesMetric(gateway.metricsUrl, 'token-rpc', 'ECONNREFUSED')).toBe(1);

    await Promise.all([did.restart(), token.restart()]);
    const before = { did: did.requests.length, token: token.requests.length };
    const again = await fetch(`${gateway.url}/v2/did/issuers`);
    expect(again.status).toBe(200);
    expect(((await again.json()) as { upstream: string }).upstream).toBe('did');
    const rpcAgain = await postRpc(gateway.url, 3);
    expect(rpcAgain.status).toBe(200);
    expect(((await rpcAgain.json()) as { body: string }).body).toBe(rpcBody(3));
    expect(did.requests.length - before.did).toBe(1);
    expect(token.requests.length - before.token).toBe(1);
  });

  it('retries a GET whose connection broke before any answer; never a POST', async () => {
    const { gateway, did, token } = await startStack();
    expect((await fetch(`${gateway.url}/v2/did/issuers`)).status).toBe(200);

    // GET: the first attempt's connection is reset; the second attempt is answered.
    did.dropConnections = 1;
    let seen = did.requests.length;
    const read = await fetch(`${gateway.url}/v2/did/issuers`);
    expect(read.status).toBe(200);
    expect(did.requests.slice(seen).map((r) => [r.method, r.url, r.dropped ?? false])).toEqual([
      ['GET', '/v2/did/issuers', true],
      ['GET', '/v2/did/issuers', false],
    ]);
    expect(await retriesMetric(gateway.metricsUrl, 'did-service', 'ECONNRESET')).toBe(1);

    // REST POST: it reached the upstream, so it is not sent again: 502.
    did.dropConnections = 1;
    seen = did.requests.length;
    const write = await fetch(`${gateway.url}/v2/did/create-did`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ alias: 'a' }),
    });
    expect(write.status).toBe(502);
    expect(await write.json()).toEqual({
      error: { code: '502', message: 'did-service is unavailable' },
    });
    expect(did.requests.length - seen).toBe(1);

    // JSON-RPC (always POST): same rule, the JSON-RPC envelope.
    token.dropConnections = 1;
    seen = token.requests.length;
    const rpc = await postRpc(gateway.url, 9);
    expect(rpc.status).toBe(502);
    expect(((await rpc.json()) as { id: number; error: { code: number } }).error.code).toBe(-32300);
    expect(token.requests.length - seen).toBe(1);
    expect(await retriesMetric(gateway.metricsUrl, 'token-rpc', 'ECONNRESET')).toBe(0);
  });
});

describe('an upstream that shuts down gracefully while the gateway forwards load to it', () => {
  it('answers every client: what the upstream started is 200, nothing is cut', async () => {
    // A real service-kit upstream (auth-service's place) with a slow handler.
    const upstream = new HttpService({
      name: 'slow-auth',
      config: { HOST: '127.0.0.1', PORT: 0, SHUTDOWN_TIMEOUT_MS: 3_000, READINESS_TIMEOUT_MS: 500 },
      logger: pino({ level: 'silent' }),
    });
    let started = 0;
    upstream.app.post('/v2/auth/auth-user', (_req, res) => {
      started += 1;
      // A real duration, not a wait: each request is in flight a while when the shutdown begins.
      setTimeout(() => res.json({ ok: true }), 100);
    });
    const { url: upstreamUrl } = await upstream.listen();
    extra.push(upstream);
    const { gateway } = await startStack(upstreamUrl);

    const agent = new Agent({ keepAlive: true, maxSockets: 6 });
    const outcomes: Array<{ status?: number; error?: string; body?: string }> = [];
    let stop = false;
    const post = () =>
      new Promise<void>((resolve) => {
        const url = new URL(`${gateway.url}/v2/auth/auth-user`);
        const req = request(
          url,
          { method: 'POST', agent, headers: { 'content-type': 'application/json' } },
          (res) => {
            let body = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => (body += chunk));
            res.on('end', () => {
              outcomes.push({ status: res.statusCode, body });
              resolve();
            });
          },
        );
        req.on('error', (err: NodeJS.ErrnoException) => {
          outcomes.push({ error: err.code ?? err.message });
          resolve();
        });
        req.end('{"id":"demo","password":"x"}');
      });
    const lanes = Array.from({ length: 6 }, async (_, i) => {
      for (let n = 0; !stop; n++) {
        await post();
        // Part of the load, not a wait: uneven pauses between a lane's requests.
        await new Promise((r) => setTimeout(r, ((i * 31 + n * 17) % 40) + 1));
      }
    });
    // The load is running: twelve answers back (two per lane on average), and requests in
    // flight at the upstream when its shutdown begins.
    await waitFor(
      () => {
        return outcomes.length >= 12 && started > outcomes.length;
      },
      { what: 'load with requests in flight' },
    );
    // The clients keep firing through the gateway for as long as the upstream's shutdown takes,
    // and until the gateway has answered one sent after the upstream stopped listening.
    const startedAt = Date.now();
    await upstream.close();
    const drainMs = Date.now() - startedAt;
    await waitFor(() => outcomes.some((o) => o.status !== 200), {
      what: 'an answer to a request the upstream never got',
    });
    stop = true;
    await Promise.all(lanes);
    agent.destroy();

    // The drain ended by itself (every connection answered and closed), not by its grace.
    expect(drainMs).toBeLessThan(2_000);
    // Every client request got an HTTP answer from the gateway, never a socket error.
    expect(outcomes.filter((o) => o.error)).toEqual([]);
    // Everything the upstream began was answered 200; the rest (sent after it stopped
    // listening, POST: not retried past a refused connection) is the gateway's 502.
    expect(outcomes.filter((o) => o.status === 200)).toHaveLength(started);
    const others = outcomes.filter((o) => o.status !== 200);
    expect(others.length).toBeGreaterThan(0);
    for (const other of others) {
      expect(other.status).toBe(502);
      expect(JSON.parse(other.body ?? '')).toEqual({
        error: { code: '502', message: 'auth-service is unavailable' },
      });
    }
  });
});
