import type { IncomingMessage, ServerResponse } from 'node:http';
import { context } from '@opentelemetry/api';
import { errorBody, injectTraceHeaders, type HttpService, type RawRoutes } from '@itp/service-kit';
import type { BaseError } from '@itp/errors';
import type { CorsOrigins } from '../config.js';
import {
  BodyTooLargeError,
  CorruptBodyError,
  InvalidPathError,
  UnsupportedEncodingError,
} from '../errors.js';
import type { Upstream } from '../upstreams/upstreams.js';
import type { Forward } from './forward.js';
import { upstreamHeaders, type TrustProxyFn } from './forward-headers.js';
import { readBody } from './read-body.js';
import { hasDotSegment } from './reject-dot-segments.js';
import { corsActualHeaders, securityHeaderList } from './security.js';

export interface GatewayRoute {
  upstream: Upstream;
  forward: Forward;
}

export interface GatewayRoutesOptions {
  service: Pick<HttpService, 'observe'>;
  routes: GatewayRoute[];
  bodyLimitBytes: number;
  corsOrigins: CorsOrigins;
  hstsMaxAgeSeconds: number;
  /** Express's compiled `trust proxy` setting. */
  trustProxy: TrustProxyFn;
}

interface Matched {
  route: GatewayRoute;
  /** The route template for metrics and spans (`/v2/auth/*rest`, `/token`). */
  template: string;
}

/** Answers a JSON error in the REST shape (the gateway's own refusals). */
function sendError(res: ServerResponse, error: BaseError): void {
  const payload = JSON.stringify(errorBody(error.code, error.message));
  res.writeHead(error.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(payload),
  });
  res.end(payload);
}

/**
 * The gateway's forwarding table on node:http (HttpService.setRawRoutes), built once: an exact
 * path map and a short prefix list, so a request costs a lookup, not a middleware stack. A request
 * to a forwarded path (any method but OPTIONS) gets its request id, access log line and metrics
 * (service.observe), the security and CORS headers (computed once from the same helmet and CORS
 * settings the express side uses), then: dot segments → 400, the body read within the limit
 * (413 / 415 / 400 as express's body parser answered), forwarding. Everything else — health,
 * preflights, 404s, routes mounted on `service.app` — is declined and goes to express.
 */
export function gatewayRoutes(options: GatewayRoutesOptions): RawRoutes {
  const exact = new Map<string, Matched>();
  const prefixes: Array<{ prefix: string; matched: Matched }> = [];
  for (const route of options.routes) {
    for (const path of route.upstream.paths) {
      const wildcard = /^(.*\/)\*[A-Za-z_]+$/.exec(path);
      if (wildcard) {
        const prefix = wildcard[1]!;
        prefixes.push({ prefix, matched: { route, template: path } });
      } else if (/[*:()]/.test(path)) {
        throw new TypeError(`unsupported gateway route path ${path}`);
      } else {
        const matched = { route, template: path };
        exact.set(path, matched);
        exact.set(`${path}/`, matched);
      }
    }
  }
  const match = (path: string): Matched | undefined => {
    const hit = exact.get(path);
    if (hit) return hit;
    for (const { prefix, matched } of prefixes) {
      if (path.length > prefix.length && path.startsWith(prefix)) return matched;
    }
    return undefined;
  };

  const security = securityHeaderList(options.hstsMaxAgeSeconds);
  const cors = corsActualHeaders(options.corsOrigins);
  const { service, bodyLimitBytes, trustProxy } = options;

  const handle = (req: IncomingMessage, res: ServerResponse, matched: Matched): void => {
    const { id, traceContext } = service.observe(req, res, matched.template);
    for (const [name, value] of security) res.setHeader(name, value);
    cors(req.headers.origin, res);
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    if (hasDotSegment(query === -1 ? url : url.slice(0, query))) {
      sendError(res, new InvalidPathError());
      return;
    }
    readBody(req, bodyLimitBytes, (outcome) => {
      switch (outcome.kind) {
        case 'aborted':
          return;
        case 'too-large':
          sendError(res, new BodyTooLargeError());
          return;
        case 'bad-encoding':
          sendError(
            res,
            outcome.status === 415 ? new UnsupportedEncodingError() : new CorruptBodyError(),
          );
          return;
        case 'ok': {
          const outgoing = {
            requestId: id,
            headers: upstreamHeaders(req, trustProxy, id, outcome.inflated),
            body: outcome.body,
            traceContext,
          };
          if (traceContext) {
            // Forwarded inside the request's span: its traceparent goes upstream.
            context.with(traceContext, () => {
              injectTraceHeaders(outgoing.headers as Record<string, string>);
              matched.route.forward(req, res, outgoing);
            });
          } else {
            matched.route.forward(req, res, outgoing);
          }
        }
      }
    });
  };

  return (req, res) => {
    if (req.method === 'OPTIONS') return false; // preflights: corsPolicy answers them
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const matched = match(query === -1 ? url : url.slice(0, query));
    if (!matched) return false;
    handle(req, res, matched);
    return true;
  };
}
