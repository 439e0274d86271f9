import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import { connect, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from '@jest/globals';
import { pino } from 'pino';
import { waitFor } from './testing/wait-for.js';
import { HttpService } from './http-service.js';

// Real servers (HttpService on an ephemeral port) and real keep-alive clients: what a gateway
// or a load balancer does to a service that receives SIGTERM while it is busy.

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      lines.push(String(chunk));
      cb();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

/** The fields of the 'drained' log line (ConnectionDrain's result). */
function drainedLine(lines: string[]): Record<string, unknown> | undefined {
  return lines
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .find((entry) => entry.msg === 'drained');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let service: HttpService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

async function startSlowService(options: {
  handlerMs: number;
  graceMs: number;
  idleLingerMs?: number;
}) {
  const { logger, lines } = capture();
  service = new HttpService({
    name: 'drain-test',
    config: {
      HOST: '127.0.0.1',
      PORT: 0,
      SHUTDOWN_TIMEOUT_MS: options.graceMs,
      READINESS_TIMEOUT_MS: 500,
    },
    logger,
    ...(options.idleLingerMs === undefined ? {} : { idleLingerMs: options.idleLingerMs }),
  });
  let started = 0;
  service.app.get('/slow', (_req, res) => {
    started += 1;
    // A handler that takes handlerMs (a real duration: the request in flight).
    const timer = setTimeout(() => res.json({ done: true }), options.handlerMs);
    res.once('close', () => clearTimeout(timer));
  });
  // Sets its own `Connection: keep-alive`, as a proxy copying an upstream's headers does.
  service.app.get('/proxied', (_req, res) => {
    res.setHeader('Connection', 'keep-alive');
    res.writeHead(200, { 'Content-Type': 'application/json', Connection: 'keep-alive' });
    res.end('{}');
  });
  const { url, port } = await service.listen();
  return { url, port, lines, started: () => started };
}

interface Outcome {
  status?: number;
  connection?: string;
  retryAfter?: string;
  error?: string;
  /** Sent while the server was draining. */
  duringDrain: boolean;
}

/** One GET over the keep-alive agent; never rejects (a socket error is an outcome). */
function get(agent: Agent, port: number, path: string, duringDrain: boolean): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, agent }, (res) => {
      res.resume();
      res.on('end', () =>
        resolve({
          status: res.statusCode,
          connection: res.headers.connection,
          retryAfter: res.headers['retry-after'],
          duringDrain,
        }),
      );
      res.on('error', (err: NodeJS.ErrnoException) =>
        resolve({ error: err.code ?? err.message, duringDrain }),
      );
    });
    req.on('error', (err: NodeJS.ErrnoException) =>
      resolve({ error: err.code ?? err.message, duringDrain }),
    );
    req.end();
  });
}

/** Raw HTTP/1.1 on one socket: the exact connection the next request goes over. */
function rawGet(
  socket: Socket,
  path: string,
): Promise<{ status: number; headers: IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString('latin1');
      const end = buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const [statusLine, ...headerLines] = buffer.slice(0, end).split('\r\n');
      const headers: IncomingHttpHeaders = {};
      for (const line of headerLines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      const length = Number(headers['content-length'] ?? 0);
      if (buffer.length < end + 4 + length) return;
      socket.off('data', onData);
      socket.off('close', onClose);
      resolve({ status: Number(statusLine?.split(' ')[1]), headers });
    };
    const onClose = () => reject(new Error(`socket closed before an answer to ${path}`));
    socket.on('data', onData);
    socket.once('close', onClose);
    socket.write(`GET ${path} HTTP/1.1\r\nHost: test\r\nConnection: keep-alive\r\n\r\n`);
  });
}

function openSocket(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port }, () => resolve(socket));
    socket.once('error', reject);
  });
}

describe('graceful shutdown under load (HttpService + ConnectionDrain)', () => {
  it('answers every request: in-flight ones 200, and those still sent on kept-alive connections', async () => {
    const { url, port, lines, started } = await startSlowService({
      handlerMs: 120,
      graceMs: 5_000,
    });
    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    const outcomes: Outcome[] = [];
    const answeredLanes = new Set<number>();
    let draining = false;
    // Eight clients, each firing request after request on its kept-alive connection, with a
    // short pause between them (so that when the shutdown begins some connections are idle and
    // their next request is on its way), until the server says `Connection: close` (a keep-alive
    // agent sends nothing more on that connection).
    const lane = async (_: unknown, i: number) => {
      for (let n = 0; ; n++) {
        const outcome = await get(agent, port, '/slow', draining);
        outcomes.push(outcome);
        answeredLanes.add(i);
        if (outcome.error || outcome.connection === 'close') return;
        // The clients' think time (the load's shape, a real duration, not a wait).
        await sleep(((i * 37 + n * 53) % 100) + 1);
      }
    };
    const lanes = Array.from({ length: 8 }, lane);
    // Every lane has its kept-alive connection (one answer each), and requests are in flight.
    await waitFor(() => answeredLanes.size === 8 && started() > outcomes.length, {
      what: 'every lane answered once and a request in flight',
    });
    draining = true;
    const closing = service!.close();
    await Promise.all(lanes);
    await closing;
    agent.destroy();

    expect(outcomes.filter((o) => o.error)).toEqual([]);
    expect(outcomes.every((o) => o.status === 200)).toBe(true);
    expect(outcomes.length).toBeGreaterThanOrEqual(16); // at least two per connection
    // Every connection ended with an answer saying so: none was closed under a request.
    expect(outcomes.filter((o) => o.connection === 'close')).toHaveLength(8);
    const drained = drainedLine(lines);
    expect(drained).toMatchObject({ cut: 0 });
    // Requests in flight when the drain began plus those sent on idle kept-alive connections
    // after it began: one per connection, all answered.
    expect(Number(drained?.inFlightAtStart) + Number(drained?.servedDuringDrain)).toBe(8);
    expect(Number(drained?.inFlightAtStart)).toBeGreaterThan(0);
    // New connections are refused once the drain has begun.
    await expect(fetch(`${url}/health/live`)).rejects.toThrow();
  });

  it('keeps an idle kept-alive connection open while a request is in flight, and serves it', async () => {
    const { port, started } = await startSlowService({
      handlerMs: 400,
      graceMs: 5_000,
      idleLingerMs: 50,
    });
    const idle = await openSocket(port);
    const busy = await openSocket(port);
    // The idle connection has carried one request and now waits, kept alive.
    const first = await rawGet(idle, '/health/live');
    expect(first.headers.connection).toBe('keep-alive');
    const slow = rawGet(busy, '/slow'); // in flight for 400 ms
    await waitFor(() => started() === 1, { what: '/slow to reach its handler' });
    const closing = service!.close();
    // Three idle lingers (a real duration: nothing happens that could be awaited instead), still
    // open, because /slow is in flight.
    await sleep(150);
    expect(idle.destroyed).toBe(false);
    const late = await rawGet(idle, '/proxied');
    expect(late.status).toBe(200);
    expect(late.headers.connection).toBe('close'); // even though the handler said keep-alive
    const slowAnswer = await slow;
    expect(slowAnswer.status).toBe(200);
    expect(slowAnswer.headers.connection).toBe('close'); // its headers were not sent yet
    await closing;
    idle.destroy();
    busy.destroy();
  });

  it('closes idle connections once quiet, and cuts a handler slower than the grace', async () => {
    const { port, lines, started } = await startSlowService({ handlerMs: 20_000, graceMs: 250 });
    const idle = await openSocket(port);
    await rawGet(idle, '/health/live');
    const idleClosed = new Promise<void>((resolve) => idle.once('close', () => resolve()));
    const agent = new Agent({ keepAlive: true });
    const outcome = get(agent, port, '/slow', false);
    await waitFor(() => started() === 1, { what: '/slow to reach its handler' });
    const startedAt = Date.now();
    await service!.close(); // waits out the grace (250 ms): the scenario, not a wait
    const took = Date.now() - startedAt;
    expect(took).toBeGreaterThanOrEqual(200);
    expect(took).toBeLessThan(3_000);
    await idleClosed;
    expect((await outcome).error).toBeDefined();
    agent.destroy();
    expect(drainedLine(lines)).toMatchObject({ inFlightAtStart: 1, cut: 1 });
  });

  it('closes a quiet server at once after the linger (no request in flight)', async () => {
    const { port } = await startSlowService({ handlerMs: 10, graceMs: 5_000 });
    const idle = await openSocket(port);
    await rawGet(idle, '/health/live');
    const idleClosed = new Promise<void>((resolve) => idle.once('close', () => resolve()));
    idle.resume();
    const startedAt = Date.now();
    await service!.close();
    await idleClosed;
    expect(Date.now() - startedAt).toBeLessThan(1_500);
  });
});
