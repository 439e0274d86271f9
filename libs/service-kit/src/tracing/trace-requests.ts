import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import {
  ROOT_CONTEXT,
  type Context,
  SpanKind,
  SpanStatusCode,
  context,
  propagation,
  trace,
  type Span,
} from '@opentelemetry/api';
import { tracingEnabled } from './tracing.js';

/** The server span of each request in flight (the access logger reads it: requestTraceFields). */
const spans = new WeakMap<object, Span>();

/** `{ traceId, spanId }` of the request's server span: on the access log line and `req.log`. */
export function requestTraceFields(res: object): Record<string, string> {
  const span = spans.get(res);
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { traceId, spanId };
}

export interface TraceOptions {
  /** Continue the caller's W3C trace context (false at the public edge: a new trace). */
  continueTrace: boolean;
}

/** The caller's trace context from `traceparent`, or the root (a new trace) at the edge. */
function parentContext(req: IncomingMessage, options: TraceOptions): Context {
  return options.continueTrace ? propagation.extract(ROOT_CONTEXT, req.headers) : ROOT_CONTEXT;
}

/**
 * Express middleware (first in the chain): a SERVER span per request, continuing the caller's
 * trace from its W3C `traceparent`, active for everything the request does (log lines carry its
 * trace id). Named `METHOD route` once the route is known; status code and request id recorded;
 * 5xx marks it failed. Without tracing, `next()` and nothing else.
 */
export function traceRequests(
  serviceName: string,
  options: TraceOptions = { continueTrace: true },
): RequestHandler {
  return (req, res, next) => {
    if (!tracingEnabled()) {
      next();
      return;
    }
    const parent = parentContext(req, options);
    const span = trace.getTracer('@itp/service-kit').startSpan(
      req.method,
      {
        kind: SpanKind.SERVER,
        attributes: {
          'http.request.method': req.method,
          'url.path': (req.originalUrl ?? req.url).split('?')[0],
          'service.name': serviceName,
        },
      },
      parent,
    );
    spans.set(res, span);
    res.once('close', () => {
      const route = (req.route as { path?: unknown } | undefined)?.path;
      const path = req.baseUrl + (typeof route === 'string' ? route : '');
      if (typeof route === 'string') span.updateName(`${req.method} ${path}`);
      span.setAttribute('http.response.status_code', res.statusCode);
      if (req.id !== undefined) span.setAttribute('request.id', String(req.id));
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
    context.with(trace.setSpan(parent, span), next);
  };
}

/**
 * The same SERVER span for a request answered outside express (a raw route of HttpService,
 * e.g. the gateway's forwarding table): started now, named `METHOD route`, ended when the
 * response closes. Returns the context to run the handler in (so outgoing calls carry its
 * `traceparent`), or undefined without tracing.
 */
export function traceRawRequest(
  serviceName: string,
  req: IncomingMessage,
  res: ServerResponse,
  route: string,
  requestId: string,
  options: TraceOptions = { continueTrace: true },
): Context | undefined {
  if (!tracingEnabled()) return undefined;
  const parent = parentContext(req, options);
  const method = req.method ?? 'GET';
  const span = trace.getTracer('@itp/service-kit').startSpan(
    `${method} ${route}`,
    {
      kind: SpanKind.SERVER,
      attributes: {
        'http.request.method': method,
        'url.path': (req.url ?? '').split('?')[0],
        'service.name': serviceName,
        'request.id': requestId,
      },
    },
    parent,
  );
  spans.set(res, span);
  res.once('close', () => {
    span.setAttribute('http.response.status_code', res.statusCode);
    if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  });
  return trace.setSpan(parent, span);
}
