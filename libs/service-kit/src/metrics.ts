import { Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { RequestHandler } from 'express';

export interface HttpMetrics {
  registry: Registry;
  middleware: RequestHandler;
  /** One observation of the latency histogram (raw routes, which have no express middleware). */
  observe(method: string, route: string, status: number, seconds: number): void;
}

/** A registry per service with process metrics and one HTTP latency histogram. */
export function createHttpMetrics(service: string): HttpMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const middleware: RequestHandler = (req, res, next) => {
    const end = duration.startTimer();
    res.on('finish', () => {
      // Route templates, never raw URLs, keep the label set bounded.
      const route = req.route?.path
        ? `${req.baseUrl}${String(req.route.path)}`
        : req.baseUrl || 'unmatched';
      end({ method: req.method, route, status: String(res.statusCode) });
    });
    next();
  };
  const observe = (method: string, route: string, status: number, seconds: number): void => {
    duration.observe({ method, route, status: String(status) }, seconds);
  };
  return { registry, middleware, observe };
}
