import type { RequestHandler } from 'express';
import cors, { type CorsOptions } from 'cors';
import helmet from 'helmet';
import type { CorsOrigins } from '../config.js';

/**
 * Security headers for a JSON API (helmet): a deny-all CSP (nothing here is a document to render),
 * nosniff, frame denial, no referrer, ...; HSTS only when `hstsMaxAgeSeconds` > 0 (TLS terminates
 * in front of the gateway, so only the deployment knows whether clients reach it over HTTPS).
 */
export function securityHeaders(hstsMaxAgeSeconds: number): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
    },
    frameguard: { action: 'deny' },
    strictTransportSecurity:
      hstsMaxAgeSeconds > 0 ? { maxAge: hstsMaxAgeSeconds, includeSubDomains: true } : false,
  });
}

const CORS_COMMON: CorsOptions = {
  methods: ['GET', 'HEAD', 'POST', 'OPTIONS'],
  allowedHeaders: ['Authorization', 'Content-Type', 'Accept', 'X-Request-Id'],
  exposedHeaders: ['X-Request-Id', 'Retry-After'],
  // Bearer / Basic credentials travel in headers; the API sets no cookies.
  credentials: false,
  maxAge: 600,
  optionsSuccessStatus: 204,
};

/**
 * CORS for the configured origins (`*`, a list, or none). Every response carries `Vary: Origin`;
 * every OPTIONS request (preflight) is answered here with 204 and never forwarded. A preflight
 * from an origin that is not allowed gets no `Access-Control-Allow-Origin`, so the browser stops.
 */
export function corsPolicy(origins: CorsOrigins): RequestHandler {
  const handler =
    origins === '*'
      ? cors({ ...CORS_COMMON, origin: '*' })
      : origins.length > 0
        ? cors({ ...CORS_COMMON, origin: origins })
        : undefined;
  return (req, res, next) => {
    res.vary('Origin');
    if (handler) {
      handler(req, res, next);
      return;
    }
    if (req.method === 'OPTIONS') {
      res.status(204).setHeader('Content-Length', '0');
      res.end();
      return;
    }
    next();
  };
}
