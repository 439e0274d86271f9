import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from '@jest/globals';
import { pino } from 'pino';
import {
  BadRequestError,
  BaseError,
  DEFAULT_RETRY_AFTER_SECONDS,
  InternalError,
  ServiceUnavailableError,
  TooManyRequestsError,
} from '@itp/errors';
import express from 'express';
import { HttpService } from './http-service.js';
import { InternalClient, requireInternalToken } from './internal-api.js';

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      lines.push(String(chunk));
      cb();
    },
  });
  return { logger: pino({ level: 'trace' }, stream), lines };
}

const config = { HOST: '127.0.0.1', PORT: 0, SHUTDOWN_TIMEOUT_MS: 2000, READINESS_TIMEOUT_MS: 200 };
let service: HttpService | undefined;

afterEach(async () => {
  await service?.close();
  service = undefined;
});

async function start(setup: (s: HttpService) => void) {
  const { logger, lines } = capture();
  service = new HttpService({ name: 'test-svc', config, logger });
  setup(service);
  const running = await service.listen();
  return {
    url: running.url,
    metricsUrl: running.metricsUrl,
    internalUrl: running.internalUrl ?? '',
    lines,
  };
}

describe('HttpService', () => {
  it('answers live, and ready only when every check passes, naming the failing one', async () => {
    let dbUp = true;
    const { url } = await start((s) => {
      s.addReadinessCheck({
        name: 'database',
        check: async () => (dbUp ? undefined : Promise.reject(new Error('down'))),
      });
      // A check that takes time to answer (a real duration, not a wait).
      s.addReadinessCheck({ name: 'slow', check: () => new Promise((r) => setTimeout(r, 10)) });
    });
    expect((await fetch(`${url}/health/live`)).status).toBe(200);
    const ok = await fetch(`${url}/health/ready`);
    expect(ok.status).toBe(200);
    dbUp = false;
    const bad = await fetch(`${url}/health/ready`);
    expect(bad.status).toBe(503);
    const body = (await bad.json()) as { notReady: string[]; checks: Record<string, string> };
    expect(body.notReady).toEqual(['database']);
    expect(body.checks.database).toMatch(/down/);
  });

  it('answers the self-only readiness from the process and its essential checks only', async () => {
    let dbUp = false;
    let localUp = true;
    const { url } = await start((s) => {
      s.addReadinessCheck({
        name: 'database',
        check: async () => (dbUp ? undefined : Promise.reject(new Error('down'))),
      });
      s.addReadinessCheck({
        name: 'local-file',
        essential: true,
        check: async () => (localUp ? undefined : Promise.reject(new Error('unreadable'))),
      });
    });
    // A dependency behind the service is down: the aggregate says so, the probe stays ready.
    expect((await fetch(`${url}/health/ready`)).status).toBe(503);
    const self = await fetch(`${url}/health/ready/self`);
    expect(self.status).toBe(200);
    expect(await self.json()).toEqual({
      status: 'ready',
      checks: { process: 'ok', 'local-file': 'ok' },
      notReady: [],
    });
    // What it cannot serve a single request without is part of it.
    localUp = false;
    const bad = await fetch(`${url}/health/ready/self`);
    expect(bad.status).toBe(503);
    expect(((await bad.json()) as { notReady: string[] }).notReady).toEqual(['local-file']);
    dbUp = true;
    localUp = true;
    expect((await fetch(`${url}/health/ready`)).status).toBe(200);
  });

  it('times out a hanging readiness check instead of hanging', async () => {
    const { url } = await start((s) =>
      s.addReadinessCheck({ name: 'redis', check: () => new Promise(() => undefined) }),
    );
    const res = await fetch(`${url}/health/ready`);
    expect(res.status).toBe(503);
    expect(((await res.json()) as { checks: Record<string, string> }).checks.redis).toMatch(
      /no answer/,
    );
  });

  it('serves Prometheus metrics on the separate listener only, never on the public port', async () => {
    const { url, metricsUrl } = await start(() => undefined);
    expect(new URL(metricsUrl).port).not.toBe(new URL(url).port);
    await fetch(`${url}/health/live`);
    const scrape = await fetch(`${metricsUrl}/metrics`);
    expect(scrape.status).toBe(200);
    const text = await scrape.text();
    expect(text).toMatch(/http_request_duration_seconds_bucket/);
    expect(text).toMatch(/process_cpu_user_seconds_total/);
    const publicMetrics = await fetch(`${url}/metrics`);
    expect(publicMetrics.status).toBe(404);
    expect(await publicMetrics.text()).not.toMatch(/http_request_duration_seconds/);
    expect((await fetch(`${metricsUrl}/health/live`)).status).toBe(404);
  });

  it('answers an internal failure with a generic text and the request id, and logs the detail', async () => {
    const { url, lines } = await start((s) => {
      s.app.get('/boom', () => {
        throw new InternalError('wallet secrets cannot be decrypted (check WALLET_MASTER_KEY)');
      });
      s.app.get('/crash', () => {
        throw new Error('db password=hunter2 rejected');
      });
      s.app.get('/down', () => {
        throw new ServiceUnavailableError('The chain is unavailable');
      });
    });
    for (const path of ['/boom', '/crash']) {
      const res = await fetch(`${url}${path}`, {
        headers: { 'x-request-id': `req-${path.slice(1)}` },
      });
      expect(res.status).toBe(500);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error).toEqual({
        code: '500',
        message: `Internal error (request id req-${path.slice(1)})`,
      });
    }
    const log = lines.join('');
    expect(log).toMatch(/check WALLET_MASTER_KEY/);
    expect(log).toMatch(/req-boom/);
    const down = await fetch(`${url}/down`);
    expect(down.status).toBe(503);
    expect(((await down.json()) as { error: { message: string } }).error.message).toBe(
      'The chain is unavailable',
    );
  });

  it('sends Retry-After with every 503: the error own value, else the default', async () => {
    class OwnUnavailableError extends BaseError {
      static override readonly code = '503';
      readonly status = 503;
    }
    const { url } = await start((s) => {
      s.app.get('/db-down', () => {
        throw new ServiceUnavailableError('The database is temporarily unavailable');
      });
      s.app.get('/peer-down', () => {
        throw new ServiceUnavailableError('peer is unavailable', { retryAfterSeconds: 30 });
      });
      s.app.get('/own', () => {
        throw new OwnUnavailableError('busy');
      });
    });
    const dbDown = await fetch(`${url}/db-down`);
    expect(dbDown.status).toBe(503);
    expect(dbDown.headers.get('retry-after')).toBe(String(DEFAULT_RETRY_AFTER_SECONDS));
    expect(await dbDown.json()).toEqual({
      error: { code: '503', message: 'The database is temporarily unavailable' },
    });
    expect((await fetch(`${url}/peer-down`)).headers.get('retry-after')).toBe('30');
    const own = await fetch(`${url}/own`);
    expect(own.status).toBe(503);
    expect(own.headers.get('retry-after')).toBe(String(DEFAULT_RETRY_AFTER_SECONDS));
  });

  it('maps errors to the REST error shape, never a stack trace', async () => {
    const { url } = await start((s) => {
      s.app.use(express.json({ limit: 100 }));
      s.app.post('/bad', () => {
        throw new BadRequestError('name is required');
      });
      s.app.post('/slow-down', () => {
        throw new TooManyRequestsError('too many attempts', 30);
      });
      s.app.post('/bug', () => {
        throw new Error('secret internal detail');
      });
      s.app.post('/echo', (req, res) => void res.json(req.body));
    });
    const post = (path: string, body: string) =>
      fetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
    const bad = await post('/bad', '{}');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: { code: '400', message: 'name is required' } });
    const limited = await post('/slow-down', '{}');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('30');
    const bug = await post('/bug', '{}');
    expect(bug.status).toBe(500);
    const bugText = await bug.text();
    expect(bugText).not.toMatch(/secret internal detail|at /);
    const malformed = await post('/echo', '{"a":');
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({
      error: { code: '400', message: 'Malformed JSON body' },
    });
    const huge = await post('/echo', JSON.stringify({ a: 'x'.repeat(500) }));
    expect(huge.status).toBe(413);
    const missing = await fetch(`${url}/nope`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('404');
  });

  it('passes a well-formed request id through and makes one otherwise; no x-powered-by', async () => {
    const { url } = await start(() => undefined);
    const given = await fetch(`${url}/health/live`, { headers: { 'x-request-id': 'abc-123' } });
    expect(given.headers.get('x-request-id')).toBe('abc-123');
    const made = await fetch(`${url}/health/live`, {
      headers: { 'x-request-id': 'bad id with spaces' },
    });
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(made.headers.get('x-powered-by')).toBeNull();
  });

  it('never logs the Authorization header or bodies', async () => {
    const { url, lines } = await start((s) =>
      s.app.post('/login', express.json(), (_req, res) => void res.json({ ok: true })),
    );
    await fetch(`${url}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer super-secret-jwt' },
      body: JSON.stringify({ password: 'hunter2' }),
    });
    await service?.close();
    const all = lines.join('');
    expect(all).toContain('/login');
    expect(all).not.toContain('super-secret-jwt');
    expect(all).not.toContain('hunter2');
  });

  it('drains in-flight requests on close, runs hooks in reverse order, then refuses connections', async () => {
    const order: string[] = [];
    let reached!: () => void;
    const handlerReached = new Promise<void>((resolve) => (reached = resolve));
    const { url } = await start((s) => {
      s.app.get('/slow', (_req, res) => {
        reached();
        // In flight for 100 ms: the request the drain must wait for (a real duration).
        setTimeout(() => res.json({ done: true }), 100);
      });
      s.onShutdown(() => void order.push('first-registered'));
      s.onShutdown(() => void order.push('second-registered'));
    });
    const inFlight = fetch(`${url}/slow`);
    await handlerReached;
    const closing = service!.close();
    const res = await inFlight;
    expect(await res.json()).toEqual({ done: true });
    await closing;
    expect(order).toEqual(['second-registered', 'first-registered']);
    await expect(fetch(`${url}/health/live`)).rejects.toThrow();
  });
});

describe('internal API', () => {
  it('is served on its own listener only, with health, request ids and the error shape', async () => {
    const { url, internalUrl, lines } = await start((s) => {
      s.internal.post('/internal/v1/echo', express.json(), (req, res) => void res.json(req.body));
      s.app.get('/public', (_req, res) => void res.json({ public: true }));
    });
    expect(internalUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(internalUrl).not.toBe(url);
    const post = (base: string) =>
      fetch(`${base}/internal/v1/echo`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-request-id': 'req-internal-1' },
        body: '{"a":1}',
      });
    const internal = await post(internalUrl);
    expect(internal.status).toBe(200);
    expect(await internal.json()).toEqual({ a: 1 });
    expect(internal.headers.get('x-request-id')).toBe('req-internal-1');
    // The public port has no internal route, and the internal one no public route.
    const onPublic = await post(url);
    expect(onPublic.status).toBe(404);
    expect(((await onPublic.json()) as { error: { code: string } }).error.code).toBe('404');
    expect((await fetch(`${internalUrl}/public`)).status).toBe(404);
    expect((await fetch(`${internalUrl}/health/ready/self`)).status).toBe(200);
    expect(lines.some((l) => l.includes('req-internal-1'))).toBe(true);
  });

  it('has no internal listener when the service has no internal routes', async () => {
    const { internalUrl } = await start(() => undefined);
    expect(internalUrl).toBe('');
  });

  it('drains the internal listener on close: a request in flight is answered', async () => {
    let reached!: () => void;
    const handlerReached = new Promise<void>((resolve) => (reached = resolve));
    const { internalUrl } = await start((s) => {
      s.internal.get('/internal/v1/slow', (_req, res) => {
        reached();
        // In flight for 100 ms: the request the drain must wait for (a real duration).
        setTimeout(() => res.json({ done: true }), 100);
      });
    });
    const inFlight = fetch(`${internalUrl}/internal/v1/slow`);
    await handlerReached;
    const closing = service!.close();
    expect(await (await inFlight).json()).toEqual({ done: true });
    await closing;
    await expect(fetch(`${internalUrl}/health/live`)).rejects.toThrow();
  });

  it('accepts only the right bearer token and maps error answers to BaseErrors', async () => {
    const { internalUrl: url } = await start((s) => {
      s.internal.post(
        '/internal/v1/echo',
        requireInternalToken('tok-123'),
        express.json(),
        (req, res) => void res.json(req.body),
      );
      s.internal.post('/internal/v1/fail', requireInternalToken('tok-123'), () => {
        throw new BadRequestError('address is malformed');
      });
    });
    const good = new InternalClient({ baseUrl: url, token: 'tok-123', service: 'peer' });
    expect(await good.post('/internal/v1/echo', { a: 1 })).toEqual({ a: 1 });
    await expect(good.post('/internal/v1/fail', {})).rejects.toMatchObject({
      status: 400,
      message: 'address is malformed',
    });
    const wrong = new InternalClient({ baseUrl: url, token: 'tok-999', service: 'peer' });
    await expect(wrong.post('/internal/v1/echo', {})).rejects.toMatchObject({ status: 401 });
    const down = new InternalClient({
      baseUrl: 'http://127.0.0.1:9',
      token: 'x',
      service: 'peer',
      timeoutMs: 500,
    });
    await expect(down.post('/internal/v1/echo', {})).rejects.toMatchObject({
      status: 503,
      message: 'peer is unavailable',
    });
  });

  it('accepts every token of a rotation window and nothing else', async () => {
    const { internalUrl: url } = await start((s) => {
      s.internal.post(
        '/internal/v1/echo',
        requireInternalToken(['tok-new', 'tok-old']),
        express.json(),
        (req, res) => void res.json(req.body),
      );
    });
    for (const token of ['tok-new', 'tok-old']) {
      const client = new InternalClient({ baseUrl: url, token, service: 'peer' });
      expect(await client.post('/internal/v1/echo', { token })).toEqual({ token });
    }
    for (const token of ['tok-older', 'tok-new,tok-old', 'tok-ne']) {
      const client = new InternalClient({ baseUrl: url, token, service: 'peer' });
      await expect(client.post('/internal/v1/echo', {})).rejects.toMatchObject({ status: 401 });
    }
    const none = await fetch(`${url}/internal/v1/echo`, { method: 'POST' });
    expect(none.status).toBe(401);
    expect(() => requireInternalToken([])).toThrow(/at least one/);
    expect(() => requireInternalToken(['tok', ''])).toThrow(/non-empty/);
  });
});
