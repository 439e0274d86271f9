import { Counter } from 'prom-client';
import { Service, type Logger } from '@itp/service-kit';
import type { GatewayConfig } from './config.js';
import { prepareForwardedRequest } from './forward-headers.js';
import { createUpstreamProxy } from './proxy.js';
import { readBody } from './read-body.js';
import { rejectDotSegments } from './reject-dot-segments.js';
import { corsPolicy, securityHeaders } from './security.js';
import { upstreamReadinessCheck } from './upstream-readiness.js';
import { upstreamsFrom } from './upstreams.js';

/**
 * Composition root of the gateway: the one entry point for users (contract §1). Security headers
 * and CORS first, then one route per upstream (read the body within the limit, set the forwarding
 * headers, proxy with the path unchanged); everything else is service-kit's 404. /health/ready
 * asks every upstream's own /health/ready.
 */
export async function buildApp(config: GatewayConfig, logger: Logger): Promise<Service> {
  const service = new Service({ name: 'gateway', config, logger });
  const { app } = service;
  app.set('trust proxy', config.TRUST_PROXY);
  app.use(securityHeaders(config.HSTS_MAX_AGE_SECONDS));
  app.use(corsPolicy(config.CORS_ORIGINS));

  const failures = new Counter({
    name: 'gateway_upstream_failures_total',
    help: 'Requests the gateway answered itself because an upstream was unavailable or too slow',
    labelNames: ['upstream', 'reason'] as const,
    registers: [service.metrics],
  });
  const body = readBody(config.BODY_LIMIT_BYTES);

  for (const upstream of upstreamsFrom(config)) {
    const proxy = createUpstreamProxy({
      upstream,
      timeoutMs: config.UPSTREAM_TIMEOUT_MS,
      maxSockets: config.UPSTREAM_MAX_SOCKETS,
      logger,
      failures,
    });
    app.all(upstream.paths, rejectDotSegments, body, prepareForwardedRequest, proxy.handle);
    service.addReadinessCheck(upstreamReadinessCheck(upstream, config.READINESS_TIMEOUT_MS));
    service.onShutdown(() => proxy.close());
  }
  return service;
}
