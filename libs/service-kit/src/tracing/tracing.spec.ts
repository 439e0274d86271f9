import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from '@jest/globals';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { pino } from 'pino';
import { waitFor } from '../testing/wait-for.js';
import { HttpService } from '../http-service.js';
import { InternalClient, requireInternalToken } from '../internal-api.js';
import { startTracing, type Tracing } from './start-tracing.js';
import { inSpan, tracingEnabled } from './tracing.js';

const config = { HOST: '127.0.0.1', PORT: 0, SHUTDOWN_TIMEOUT_MS: 2000, READINESS_TIMEOUT_MS: 200 };
const TOKEN = 'k'.repeat(43);
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_TRACEPARENT = `00-${TRACE_ID}-00f067aa0ba902b7-01`;

function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      for (const line of String(chunk).split('\n').filter(Boolean)) {
        lines.push(JSON.parse(line) as Record<string, unknown>);
      }
      cb();
    },
  });
  return { logger: pino({ level: 'info', mixin: undefined }, stream), lines };
}

const services: HttpService[] = [];
let tracing: Tracing | undefined;
afterEach(async () => {
  for (const s of services.splice(0)) await s.close();
  await tracing?.shutdown();
  tracing = undefined;
});

/** B answers /internal/v1/echo with the traceparent it received; A calls B and answers that. */
async function startPair(logger: ReturnType<typeof capture>['logger'], publicEdge = false) {
  const b = new HttpService({ name: 'svc-b', config, logger });
  b.app.post('/internal/v1/echo', requireInternalToken(TOKEN), (req, res) => {
    req.log.info('b handled the call');
    res.json({ traceparent: req.headers.traceparent ?? null });
  });
  services.push(b);
  const bUrl = (await b.listen()).url;
  const client = new InternalClient({ baseUrl: bUrl, token: TOKEN, service: 'svc-b' });
  const a = new HttpService({ name: 'svc-a', config, logger, publicEdge });
  a.app.get('/call', async (req, res) => {
    const answer = await inSpan('domain work', {}, () =>
      client.post<{ traceparent: string | null }>('/internal/v1/echo', {}),
    );
    req.log.info('a got the answer');
    res.json(answer);
  });
  services.push(a);
  return (await a.listen()).url;
}

describe('tracing', () => {
  it('is off by default: no spans, no traceparent sent on, no trace ids in logs', async () => {
    tracing = await startTracing({ serviceName: 'svc', config: {} });
    expect(tracing.enabled).toBe(false);
    expect(tracingEnabled()).toBe(false);
    const { logger, lines } = capture();
    const url = await startPair(logger);
    const answer = (await (await fetch(`${url}/call`)).json()) as { traceparent: string | null };
    expect(answer.traceparent).toBeNull();
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line.traceId).toBeUndefined();
  });

  it('continues the caller trace across services, with spans for each hop and trace ids in logs', async () => {
    const exporter = new InMemorySpanExporter();
    tracing = await startTracing({
      serviceName: 'svc',
      config: {},
      spanProcessor: new SimpleSpanProcessor(exporter),
    });
    expect(tracingEnabled()).toBe(true);
    const { logger, lines } = capture();
    const url = await startPair(logger);
    const res = await fetch(`${url}/call`, { headers: { traceparent: CALLER_TRACEPARENT } });
    const answer = (await res.json()) as { traceparent: string | null };
    // B received a traceparent of the caller's trace, from A's client span.
    expect(answer.traceparent).toMatch(new RegExp(`^00-${TRACE_ID}-[0-9a-f]{16}-01$`));
    const expected = [
      'GET /call',
      'POST /internal/v1/echo',
      'POST svc-b/internal/v1/echo',
      'domain work',
    ];
    // The server spans end, and the access lines are written, on 'close'.
    await waitFor(
      () =>
        expected.every((name) => exporter.getFinishedSpans().some((s) => s.name === name)) &&
        lines.some(
          (l) => l.msg === 'request completed' && (l.req as { url?: string }).url === '/call',
        ),
      { what: 'the spans and the access line of the call' },
    );
    const spans = exporter.getFinishedSpans();
    const names = spans.map((s) => s.name).sort();
    expect(names).toEqual(expected.sort());
    for (const span of spans) expect(span.spanContext().traceId).toBe(TRACE_ID);
    const byName = new Map(spans.map((s) => [s.name, s]));
    const clientSpan = byName.get('POST svc-b/internal/v1/echo')!;
    expect(byName.get('POST /internal/v1/echo')!.parentSpanContext?.spanId).toBe(
      clientSpan.spanContext().spanId,
    );
    expect(byName.get('GET /call')!.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
    expect(byName.get('GET /call')!.attributes['http.response.status_code']).toBe(200);
    // Every log line of the request, handler lines and access lines alike, carries the trace id.
    const requestLines = lines.filter((l) => l.req !== undefined || /^(a|b) /.test(String(l.msg)));
    expect(requestLines.map((l) => l.msg)).toEqual(
      expect.arrayContaining(['b handled the call', 'a got the answer', 'request completed']),
    );
    for (const line of requestLines) expect(line.traceId).toBe(TRACE_ID);
  });

  it('at the public edge, a client traceparent is not continued: a new trace, not sampled by it', async () => {
    const exporter = new InMemorySpanExporter();
    tracing = await startTracing({
      serviceName: 'svc',
      config: {},
      spanProcessor: new SimpleSpanProcessor(exporter),
    });
    const { logger } = capture();
    const url = await startPair(logger, true);
    const res = await fetch(`${url}/call`, { headers: { traceparent: CALLER_TRACEPARENT } });
    const answer = (await res.json()) as { traceparent: string | null };
    expect(answer.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/);
    expect(answer.traceparent).not.toContain(TRACE_ID);
    const edge = await waitFor(
      () => exporter.getFinishedSpans().find((s) => s.name === 'GET /call'),
      { what: "the edge's server span (it ends on 'close')" },
    );
    expect(edge).toBeDefined();
    expect(edge!.spanContext().traceId).not.toBe(TRACE_ID);
    expect(edge!.parentSpanContext).toBeUndefined();
  });

  it('marks a failing span as an error with the error name only', async () => {
    const exporter = new InMemorySpanExporter();
    tracing = await startTracing({
      serviceName: 'svc',
      config: {},
      spanProcessor: new SimpleSpanProcessor(exporter),
    });
    await expect(
      inSpan('fails', {}, async () => {
        throw new TypeError('secret detail 0xabc');
      }),
    ).rejects.toThrow(TypeError);
    const [span] = exporter.getFinishedSpans();
    expect(span!.status).toEqual({ code: 2, message: 'TypeError' });
    expect(span!.events[0]!.name).toBe('exception');
  });
});
