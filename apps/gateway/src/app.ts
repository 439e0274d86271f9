import { Counter } from 'prom-client';
import { defineApp, HttpService } from '@itp/service-kit';
import { configSchema } from './config.js';
import { prepareForwardedRequest } from './http/forward-headers.js';
import { createUpstreamProxy } from './http/proxy.js';
import { readBody } from './http/read-body.js';
import { rejectDotSegments } from './http/reject-dot-segments.js';
import { corsPolicy, securityHeaders } from './http/security.js';
import { upstreamReadinessCheck } from './upstreams/upstream-readiness.js';
import { upstreamsFrom } from './upstreams/upstreams.js';

/**
 * Composition root of the gateway: the one entry point for users (contract §1). Security headers
 * and CORS first, then one route per upstream (read the body within the limit, set the forwarding
 * headers, proxy with the path unchanged); everything else is service-kit's 404. /health/ready
 * asks every upstream's own /health/ready. The only resources are the upstream proxies (their
 * keep-alive connection pools), opened through the scope so shutdown closes them.
 */
export const buildApp = defineApp('gateway', configSchema, async (config, logger, scope) => {
  const service = new HttpService({ name: 'gateway', config, logger });
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
    const proxy = await scope.open(
      `${upstream.name} proxy`,
      () =>
        createUpstreamProxy({
          upstream,
          timeoutMs: config.UPSTREAM_TIMEOUT_MS,
          maxSockets: config.UPSTREAM_MAX_SOCKETS,
          logger,
          failures,
        }),
      (opened) => opened.close(),
    );
    app.all(upstream.paths, rejectDotSegments, body, prepareForwardedRequest, proxy.handle);
    service.addReadinessCheck(upstreamReadinessCheck(upstream, config.READINESS_TIMEOUT_MS));
  }
  return service;
});
