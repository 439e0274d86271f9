import { afterEach, describe, expect, it } from '@jest/globals';
import { waitFor } from '@itp/testing';
import { startEchoUpstream, type EchoUpstream } from './testing/echo-upstream.js';
import { startGateway, type RunningGateway } from './testing/start-gateway.js';

// Several replicas per upstream (`AUTH_SERVICE_URL=http://a:1,http://b:2`): round robin, and a
// replica that refuses connections is skipped for UPSTREAM_SKIP_MS.
let gateway: RunningGateway | undefined;
let echoes: EchoUpstream[] = [];

afterEach(async () => {
  await gateway?.close();
  await Promise.all(echoes.map((e) => e.close()));
  gateway = undefined;
  echoes = [];
});

async function start(skipMs: number) {
  const [a, b, other] = await Promise.all([
    startEchoUpstream('auth-a'),
    startEchoUpstream('auth-b'),
    startEchoUpstream('other'),
  ]);
  echoes = [a!, b!, other!];
  gateway = await startGateway({
    AUTH_SERVICE_URL: `${a!.url}, ${b!.url}`,
    DID_SERVICE_URL: other!.url,
    TOKEN_RPC_URL: other!.url,
    BLOCK_RPC_URL: other!.url,
    UPSTREAM_SKIP_MS: String(skipMs),
  });
  return { gateway, a: a!, b: b! };
}

async function login(url: string): Promise<{ status: number; upstream?: string }> {
  const response = await fetch(`${url}/v2/auth/auth-user`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"id":"demo"}',
  });
  const body = (await response.json()) as { upstream?: string };
  return { status: response.status, upstream: body.upstream };
}

async function retriesMetric(metricsUrl: string): Promise<number> {
  const text = await (await fetch(`${metricsUrl}/metrics`)).text();
  return text
    .split('\n')
    .filter((l) => l.startsWith('gateway_upstream_retries_total{') && l.includes('auth-service'))
    .reduce((sum, l) => sum + Number(l.split(' ').at(-1)), 0);
}

describe('an upstream with two replicas', () => {
  it('spreads requests over both in turn', async () => {
    const { gateway } = await start(5_000);
    const seen: Array<string | undefined> = [];
    for (let i = 0; i < 6; i += 1) seen.push((await login(gateway.url)).upstream);
    expect(seen).toEqual(['auth-a', 'auth-b', 'auth-a', 'auth-b', 'auth-a', 'auth-b']);
  });

  it('routes around a stopped replica: every request answered, the stopped one skipped', async () => {
    const { gateway, a, b } = await start(60_000);
    await a.close();
    const outcomes = [];
    for (let i = 0; i < 8; i += 1) outcomes.push(await login(gateway.url));
    expect(outcomes.every((o) => o.status === 200 && o.upstream === 'auth-b')).toBe(true);
    // Only the first request met the refusal (sent on to b once, even though it is a POST:
    // nothing reached a); the others skipped a.
    expect(await retriesMetric(gateway.metricsUrl)).toBe(1);
    expect(b.requests).toHaveLength(8);
    // The gateway is still ready: one replica of each service is.
    expect((await fetch(`${gateway.url}/health/ready`)).status).toBe(200);
  });

  it('tries a skipped replica again once the skip time is over', async () => {
    const { gateway, a } = await start(100);
    await a.close();
    expect((await login(gateway.url)).upstream).toBe('auth-b');
    await a.restart();
    // Once the 100 ms are over, a gets its turn again.
    await waitFor(async () => (await login(gateway.url)).upstream === 'auth-a', {
      what: 'auth-a answering again',
      timeoutMs: 5_000,
    });
    const seen = new Set<string | undefined>();
    for (let i = 0; i < 4; i += 1) seen.add((await login(gateway.url)).upstream);
    expect(seen).toEqual(new Set(['auth-a', 'auth-b']));
  });

  it('answers 502 only when no replica can be reached, and is not ready then', async () => {
    const { gateway, a, b } = await start(5_000);
    await Promise.all([a.close(), b.close()]);
    const response = await fetch(`${gateway.url}/v2/auth/auth-user`, {
      method: 'POST',
      body: '{}',
    });
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({
      error: { code: '502', message: 'auth-service is unavailable' },
    });
    const ready = await fetch(`${gateway.url}/health/ready`);
    expect(ready.status).toBe(503);
    const report = (await ready.json()) as { checks: Record<string, string> };
    expect(report.checks['auth-service']).toBe(
      'error: no replica ready: #1 unreachable (ECONNREFUSED); #2 unreachable (ECONNREFUSED)',
    );
  });
});
