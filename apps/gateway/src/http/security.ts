import type { ServerResponse } from 'node:http';
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
  // If-None-Match / ETag: a browser verifier revalidates a status list it has cached.
  // DPoP / DPoP-Nonce: a browser wallet's OpenID4VCI token and credential requests (RFC 9449 §8).
  allowedHeaders: [
    'Authorization',
    'Content-Type',
    'Accept',
    'X-Request-Id',
    'If-None-Match',
    'DPoP',
  ],
  // WWW-Authenticate: a browser app reads the step-up challenge's max_age (RFC 9470) and a
  // DPoP use_dpop_nonce challenge.
  exposedHeaders: ['X-Request-Id', 'Retry-After', 'ETag', 'WWW-Authenticate', 'DPoP-Nonce'],
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

/**
 * The headers `securityHeaders` sets, computed once by running helmet against a recording
 * response: the forwarding table sets them per request with a loop, not a middleware stack.
 */
export function securityHeaderList(hstsMaxAgeSeconds: number): Array<[string, string]> {
  const headers: Array<[string, string]> = [];
  const recorder = {
    setHeader: (name: string, value: unknown) => void headers.push([name, String(value)]),
    removeHeader: () => undefined,
    getHeader: () => undefined,
  };
  let synchronous = false;
  securityHeaders(hstsMaxAgeSeconds)(
    {} as Parameters<RequestHandler>[0],
    recorder as unknown as Parameters<RequestHandler>[1],
    () => {
      synchronous = true;
    },
  );
  if (!synchronous) throw new Error('helmet did not finish synchronously');
  return headers;
}

const EXPOSED_HEADERS = (CORS_COMMON.exposedHeaders as string[]).join(',');

/**
 * What `corsPolicy` adds to an actual (non-OPTIONS) request, without the cors middleware:
 * `Vary: Origin` always; when any origin is configured `Access-Control-Expose-Headers`, and for
 * an allowed origin `Access-Control-Allow-Origin` (`*` or the origin itself), as the cors package
 * does. Preflights (OPTIONS) stay with `corsPolicy`.
 */
export function corsActualHeaders(
  origins: CorsOrigins,
): (origin: string | undefined, res: ServerResponse) => void {
  const allowed = new Set(origins === '*' ? [] : origins);
  const none = origins !== '*' && origins.length === 0;
  return (origin, res) => {
    res.setHeader('Vary', 'Origin');
    if (none) return;
    if (origins === '*') res.setHeader('Access-Control-Allow-Origin', '*');
    else if (origin !== undefined && allowed.has(origin)) {
      res.setHeader('Access-Control-Allow-Origin', origin);
    }
    res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
  };
}
