import { Counter } from 'prom-client';
import { defineApp, HttpService } from '@itp/service-kit';
import { gatewayConfigSchema } from './config.js';
import { landingRouter } from './landing/landing-router.js';
import { demoRouter } from './demo/demo-router.js';
import { docsRouter } from './docs/docs-router.js';
import { createForwarder } from './http/forward.js';
import type { TrustProxyFn } from './http/forward-headers.js';
import { gatewayRoutes, type GatewayRoute } from './http/gateway-routes.js';
import { corsPolicy, securityHeaders } from './http/security.js';
import { UpstreamBalancer } from './upstreams/upstream-balancer.js';
import { upstreamReadinessCheck } from './upstreams/upstream-readiness.js';
import { upstreamsFrom } from './upstreams/upstreams.js';

/**
 * Composition root of the gateway: the one entry point for users (docs/api.md §1). The forwarding
 * table (http/gateway-routes.ts) answers the upstream paths on node:http ahead of express, over an
 * undici Pool per upstream replica (ADR 0014); everything else — /health/*, CORS preflights,
 * local routes mounted with `service.app.use(...)` below, service-kit's 404 — is the express app,
 * with the same security headers and CORS. /health/ready asks every upstream's own /health/ready.
 * The only resources are the upstream pools, opened through the scope so shutdown closes them.
 */
export const buildApp = defineApp('gateway', gatewayConfigSchema, async (config, logger, scope) => {
  const service = new HttpService({ name: 'gateway', config, logger, publicEdge: true });
  const { app } = service;
  app.set('trust proxy', config.TRUST_PROXY);
  app.use(securityHeaders(config.HSTS_MAX_AGE_SECONDS));
  app.use(corsPolicy(config.CORS_ORIGINS));
  app.use(docsRouter(config)); // /openapi.json, /docs, /openrpc/*.json (docs/docs-router.ts)
  app.use(demoRouter(config)); // /demo: development only (demo/demo-router.ts)
  app.use(landingRouter(config)); // GET /: a page in development, a JSON index otherwise
  const failures = new Counter({
    name: 'gateway_upstream_failures_total',
    help: 'Requests the gateway answered itself because an upstream was unavailable or too slow',
    labelNames: ['upstream', 'reason'] as const,
    registers: [service.metrics],
  });
  const retries = new Counter({
    name: 'gateway_upstream_retries_total',
    help: 'Requests the gateway sent to an upstream a second time (refused or, for GET/HEAD, broken connections)',
    labelNames: ['upstream', 'reason'] as const,
    registers: [service.metrics],
  });
  const routes: GatewayRoute[] = [];
  for (const upstream of upstreamsFrom(config)) {
    const balancer = await scope.open(
      `${upstream.name} pool`,
      () =>
        new UpstreamBalancer(upstream.urls, {
          connections: config.UPSTREAM_MAX_SOCKETS,
          skipMs: config.UPSTREAM_SKIP_MS,
        }),
      (opened) => opened.close(),
    );
    const forward = createForwarder({
      upstream,
      balancer,
      timeoutMs: config.UPSTREAM_TIMEOUT_MS,
      logger,
      failures,
      retries,
    });
    routes.push({ upstream, forward });
    service.addReadinessCheck(upstreamReadinessCheck(upstream, config.READINESS_TIMEOUT_MS));
  }
  service.setRawRoutes(
    gatewayRoutes({
      service,
      routes,
      bodyLimitBytes: config.BODY_LIMIT_BYTES,
      corsOrigins: config.CORS_ORIGINS,
      hstsMaxAgeSeconds: config.HSTS_MAX_AGE_SECONDS,
      trustProxy: app.get('trust proxy fn') as TrustProxyFn,
    }),
  );
  return service;
});
