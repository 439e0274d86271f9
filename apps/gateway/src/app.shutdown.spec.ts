import { Agent, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { waitFor, spawnApp, type SpawnedApp } from '@itp/testing';
import { startEchoUpstream, type EchoUpstream } from './testing/echo-upstream.js';

// The gateway as its own process (main.ts → runMain), stopped with SIGTERM while clients keep
// firing requests over kept-alive connections: none may be dropped.

let upstreams: EchoUpstream[] = [];
let gateway: SpawnedApp | undefined;

beforeAll(async () => {
  upstreams = await Promise.all(
    ['auth', 'did', 'token', 'block'].map((name) => startEchoUpstream(name)),
  );
  for (const upstream of upstreams) upstream.delayMs = 150; // every request is in flight a while
  const [auth, did, token, block] = upstreams;
  gateway = await spawnApp(
    'gateway',
    {
      APP_ENV: 'test',
      AUTH_SERVICE_URL: auth!.url,
      DID_SERVICE_URL: did!.url,
      TOKEN_RPC_URL: token!.url,
      BLOCK_RPC_URL: block!.url,
      METRICS_PORT: '0',
      SHUTDOWN_TIMEOUT_MS: '8000',
    },
    // main.ts bundled, as the stacks run it: the same runMain, started without tsx.
    { run: 'bundle' },
  );
}, 90_000);

afterAll(async () => {
  await gateway?.stop();
  await Promise.all(upstreams.map((u) => u.close()));
});

interface Outcome {
  status?: number;
  connection?: string;
  error?: string;
}

function send(agent: Agent, url: URL, method: string, body?: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = request(
      url,
      { method, agent, headers: body ? { 'content-type': 'application/json' } : {} },
      (res) => {
        res.resume();
        res.on('end', () =>
          resolve({ status: res.statusCode, connection: res.headers.connection }),
        );
        res.on('error', (err: NodeJS.ErrnoException) =>
          resolve({ error: err.code ?? err.message }),
        );
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
    req.end(body);
  });
}

describe('gateway process: SIGTERM under load', () => {
  it('answers every request sent on its connections, ignores a second signal, and exits', async () => {
    const app = gateway!;
    const agent = new Agent({ keepAlive: true, maxSockets: 10 });
    const outcomes: Outcome[] = [];
    const targets = [
      { path: '/v2/auth/auth-user', method: 'POST', body: '{"id":"demo","password":"x"}' },
      { path: '/v2/did/issuers', method: 'GET' },
      { path: '/token', method: 'POST', body: '{"jsonrpc":"2.0","id":1,"method":"createAddress"}' },
      { path: '/block', method: 'POST', body: '{"jsonrpc":"2.0","id":2,"method":"getBlock"}' },
    ];
    // Ten clients, each on its kept-alive connection, request after request (short pauses, so
    // that some connections are idle when the signal comes), until told `Connection: close`.
    const lanes = Array.from({ length: 10 }, async (_, i) => {
      for (let n = 0; ; n++) {
        const target = targets[(i + n) % targets.length]!;
        const outcome = await send(
          agent,
          new URL(target.path, app.url),
          target.method,
          target.body,
        );
        outcomes.push(outcome);
        if (outcome.error || outcome.connection === 'close') return;
        // Part of the load, not a wait: uneven pauses leave some connections idle at the signal.
        await new Promise((r) => setTimeout(r, ((i * 29 + n * 13) % 60) + 1));
      }
    });
    // The load is running: twenty answers back, the next requests in flight.
    await waitFor(() => outcomes.length >= 20, { what: 'twenty answers', timeoutMs: 10_000 });
    const signalledAt = Date.now();
    process.kill(app.pid, 'SIGTERM');
    // A real duration, not a wait: the second signal arrives while the drain is under way.
    await new Promise((r) => setTimeout(r, 30));
    process.kill(app.pid, 'SIGINT'); // Ctrl-C reaches the whole process group as well
    await Promise.all(lanes);
    await app.stop(); // resolves when the process has ended (SIGKILL only after 10 s)
    const tookMs = Date.now() - signalledAt;
    agent.destroy();

    expect(outcomes.filter((o) => o.error)).toEqual([]);
    expect(outcomes.every((o) => o.status === 200)).toBe(true);
    // The twenty before the signal, and then at least one answer (with `close`) per connection.
    expect(outcomes.length).toBeGreaterThanOrEqual(30);
    expect(outcomes.filter((o) => o.connection === 'close')).toHaveLength(10);
    // Ended by its own drain, well inside SHUTDOWN_TIMEOUT_MS and spawnApp's SIGKILL deadline.
    expect(tookMs).toBeLessThan(5_000);
    await expect(fetch(`${app.url}/health/live`)).rejects.toThrow();
  }, 30_000);
});
