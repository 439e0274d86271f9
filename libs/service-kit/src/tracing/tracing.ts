import {
  SpanKind,
  SpanStatusCode,
  context,
  propagation,
  trace,
  type Attributes,
  type Span,
} from '@opentelemetry/api';

/**
 * OpenTelemetry tracing, off by default (ADR 0012). The rest of the code calls only the helpers
 * below; while tracing is off they cost one boolean check — no context manager runs, no span is
 * made, nothing is injected — so the request path pays nothing for a feature it does not use.
 * startTracing (start-tracing.ts) switches them on.
 */
let enabled = false;

/** The one tracer of this process: spans are named by what they do, the service by the resource. */
const TRACER_NAME = '@itp/service-kit';

/** Whether spans are being recorded (startTracing ran with an exporter). */
export function tracingEnabled(): boolean {
  return enabled;
}

/** startTracing / its shutdown only. */
export function setTracingEnabled(value: boolean): void {
  enabled = value;
}

export interface SpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
}

/**
 * Runs `fn` inside a child span of the active context (a Redis command, an SQL query, a chain
 * call, an internal API call): ended when `fn` settles, an exception recorded with status ERROR.
 * Without tracing, just `fn()`.
 */
export function inSpan<T>(name: string, options: SpanOptions, fn: () => Promise<T>): Promise<T> {
  if (!enabled) return fn();
  return trace
    .getTracer(TRACER_NAME)
    .startActiveSpan(
      name,
      { kind: options.kind ?? SpanKind.CLIENT, attributes: options.attributes },
      async (span) => {
        try {
          return await fn();
        } catch (err) {
          recordFailure(span, err);
          throw err;
        } finally {
          span.end();
        }
      },
    );
}

/** Marks `span` failed with the error's name and message (never its cause: it may hold secrets). */
export function recordFailure(span: Span, err: unknown): void {
  const error = err instanceof Error ? err : new Error(String(err));
  span.recordException({ name: error.name, message: error.message });
  span.setStatus({ code: SpanStatusCode.ERROR, message: error.name });
}

/**
 * Adds the W3C `traceparent` (and `tracestate`) of the active span to outgoing `headers`, so the
 * next service continues the trace. Without tracing, nothing.
 */
export function injectTraceHeaders(headers: Record<string, string>): void {
  if (!enabled) return;
  propagation.inject(context.active(), headers);
}

/**
 * `{ traceId, spanId }` of the active span, for every log line (pino `mixin`); `{}` without
 * tracing or outside a span.
 */
export function traceLogFields(): Record<string, string> {
  if (!enabled) return {};
  const span = trace.getActiveSpan();
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { traceId, spanId };
}

export { SpanKind };
