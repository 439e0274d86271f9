import { context, propagation, trace } from '@opentelemetry/api';
import type { NodeTracerProvider, SpanProcessor } from '@opentelemetry/sdk-trace-node';
import { setTracingEnabled } from './tracing.js';

export interface TracingConfig {
  /**
   * OTEL_EXPORTER_OTLP_ENDPOINT: the OTLP/HTTP collector base URL (spans go to `<url>/v1/traces`).
   * Unset: tracing off.
   */
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;
  /** OTEL_TRACES_SAMPLE_RATIO: share of new traces recorded (0–1, default 1); a caller's decision is kept. */
  OTEL_TRACES_SAMPLE_RATIO?: number;
}

export interface StartTracingOptions {
  /** `service.name` of every span. */
  serviceName: string;
  config: TracingConfig;
  /** Tests: a processor of their own (an in-memory exporter) instead of the OTLP exporter. */
  spanProcessor?: SpanProcessor;
}

export interface Tracing {
  readonly enabled: boolean;
  /** Flushes what is buffered and stops (shutdown hook). */
  shutdown(): Promise<void>;
}

const OFF: Tracing = { enabled: false, shutdown: async () => undefined };

/** One provider per process (the OpenTelemetry API holds globals): a second start shares it. */
let running: { provider: NodeTracerProvider; users: number } | undefined;

/**
 * Switches tracing on when an OTLP endpoint (or, in tests, a span processor) is given: a tracer
 * provider with the service's name, parent-based ratio sampling, batching to the OTLP/HTTP
 * exporter, the W3C trace-context propagator and the AsyncLocalStorage context manager, so that
 * every span of a request — Redis, SQL, chain and internal calls — hangs under its server span.
 * Otherwise tracing stays off and costs nothing: the SDK and the exporter (several MiB of
 * resident memory per process) are not even loaded.
 */
export async function startTracing(options: StartTracingOptions): Promise<Tracing> {
  const endpoint = options.config.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!endpoint && !options.spanProcessor) return OFF;
  const [{ resourceFromAttributes }, sdk, { OTLPTraceExporter }] = await Promise.all([
    import('@opentelemetry/resources'),
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
  ]);
  const { BatchSpanProcessor, NodeTracerProvider, ParentBasedSampler, TraceIdRatioBasedSampler } =
    sdk;
  if (!running) {
    const processor =
      options.spanProcessor ??
      new BatchSpanProcessor(
        new OTLPTraceExporter({
          url: `${endpoint!.replace(/\/+$/, '')}/v1/traces`,
          timeoutMillis: 5_000,
        }),
      );
    const provider = new NodeTracerProvider({
      resource: resourceFromAttributes({ 'service.name': options.serviceName }),
      sampler: new ParentBasedSampler({
        root: new TraceIdRatioBasedSampler(options.config.OTEL_TRACES_SAMPLE_RATIO ?? 1),
      }),
      spanProcessors: [processor],
    });
    provider.register();
    running = { provider, users: 0 };
    setTracingEnabled(true);
  }
  const current = running;
  current.users += 1;
  let stopped = false;
  return {
    enabled: true,
    shutdown: async () => {
      if (stopped) return;
      stopped = true;
      current.users -= 1;
      if (current.users > 0) {
        await current.provider.forceFlush();
        return;
      }
      setTracingEnabled(false);
      if (running === current) running = undefined;
      await current.provider.shutdown();
      // Unregister the globals, so that a later startTracing (tests) registers afresh.
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}
