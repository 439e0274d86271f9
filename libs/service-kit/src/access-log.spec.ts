import express from 'express';
import { afterEach, describe, expect, it } from '@jest/globals';
import { pino } from 'pino';
import { waitFor } from './testing/wait-for.js';
import { HttpService } from './http-service.js';

type Line = Record<string, unknown>;

const config = { HOST: '127.0.0.1', PORT: 0, SHUTDOWN_TIMEOUT_MS: 2000, READINESS_TIMEOUT_MS: 200 };
let service: HttpService | undefined;

afterEach(async () => {
  await service?.close();
  service = undefined;
});

async function start(setup: (s: HttpService) => void) {
  const lines: Line[] = [];
  const logger = pino(
    { level: 'info' },
    { write: (l: string) => void lines.push(JSON.parse(l) as Line) },
  );
  service = new HttpService({ name: 'test-svc', config, logger });
  setup(service);
  const { url, metricsUrl } = await service.listen();
  return { url, metricsUrl, lines };
}

/** Once `count` access lines are written (each when its response has closed), all of them. */
const accessLines = (lines: Line[], count: number): Promise<Line[]> =>
  waitFor(
    () => {
      const access = lines.filter((l) => l['msg'] === 'request completed');
      return access.length >= count && access;
    },
    { what: `${count} access log line(s)` },
  );

describe('access log (express routes)', () => {
  it('writes one line per request with id, method, url, status and time; req.log carries the id', async () => {
    const { url, lines } = await start((s) => {
      s.app.get('/hello', (req, res) => {
        req.log.info('inside');
        res.status(201).json({ ok: true });
      });
    });
    const response = await fetch(`${url}/hello?x=1`, { headers: { 'x-request-id': 'acc-1' } });
    expect(response.status).toBe(201);
    expect(response.headers.get('x-request-id')).toBe('acc-1');
    const access = await accessLines(lines, 1);
    expect(lines.find((l) => l['msg'] === 'inside')).toMatchObject({ req: { id: 'acc-1' } });
    expect(access).toHaveLength(1);
    expect(access[0]).toMatchObject({
      level: 30,
      req: { id: 'acc-1', method: 'GET', url: '/hello?x=1' },
      res: { statusCode: 201 },
      responseTime: expect.any(Number),
    });
  });

  it('logs the URL the client asked for, also behind a mounted router (not the trimmed req.url)', async () => {
    const { url, lines } = await start((s) => {
      const router = express.Router();
      router.post('/', (req, res) => {
        req.log.info('mounted');
        res.json({ ok: true });
      });
      s.app.use('/block', router);
    });
    expect((await fetch(`${url}/block`, { method: 'POST' })).status).toBe(200);
    await accessLines(lines, 1);
    expect(lines.find((l) => l['msg'] === 'mounted')).toMatchObject({ req: { url: '/block' } });
    expect(lines.find((l) => l['msg'] === 'request completed')).toMatchObject({
      req: { method: 'POST', url: '/block' },
    });
  });

  it('logs 4xx at warn, skips the quiet health paths', async () => {
    const { url, lines } = await start(() => undefined);
    await (await fetch(`${url}/missing`)).arrayBuffer();
    await (await fetch(`${url}/health/live`)).arrayBuffer();
    // A last request after the health probe: once its line is written, a line for the probe
    // would have been written too.
    await (await fetch(`${url}/missing-last`)).arrayBuffer();
    const access = await accessLines(lines, 2);
    expect(access.map((l) => [l['level'], (l['req'] as { url: string }).url])).toEqual([
      [40, '/missing'],
      [40, '/missing-last'],
    ]);
  });
});

describe('raw routes (setRawRoutes + observe)', () => {
  it('answers ahead of express, with a request id, an access log line and the latency metric', async () => {
    const { url, metricsUrl, lines } = await start((s) => {
      s.setRawRoutes((req, res) => {
        if (req.url !== '/raw') return false;
        const { id } = s.observe(req, res, '/raw');
        res.end(`raw ${id}`);
        return true;
      });
      s.app.get('/raw-not', (_req, res) => void res.json({ express: true }));
    });
    const response = await fetch(`${url}/raw`, { headers: { 'x-request-id': 'raw-1' } });
    expect(await response.text()).toBe('raw raw-1');
    expect(response.headers.get('x-request-id')).toBe('raw-1');
    expect(await (await fetch(`${url}/raw-not`)).json()).toEqual({ express: true });
    expect(await accessLines(lines, 2)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ req: { id: 'raw-1', method: 'GET', url: '/raw' } }),
      ]),
    );
    const metrics = await (await fetch(`${metricsUrl}/metrics`)).text();
    expect(metrics).toMatch(/http_request_duration_seconds_count\{[^}]*route="\/raw"[^}]*\} 1/);
  });
});
