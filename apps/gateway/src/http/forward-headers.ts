import type { IncomingMessage } from 'node:http';
import { REQUEST_ID_HEADER } from '@itp/service-kit';

/** Express's compiled `trust proxy` setting (`app.get('trust proxy fn')`): (address, hop) → trusted. */
export type TrustProxyFn = (address: string, hop: number) => boolean;

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The address chain the gateway vouches for (what express calls `req.ips`, then the peer): the
 * peer, and each X-Forwarded-For entry from the right for as long as the hop before it is
 * trusted (TRUST_PROXY); leftmost is the client as the gateway determined it.
 */
export function forwardedFor(req: IncomingMessage, trust: TrustProxyFn): string {
  const peer = req.socket.remoteAddress ?? '';
  const header = first(req.headers['x-forwarded-for']);
  if (!header || !trust(peer, 0)) return peer;
  const reported = header.split(',');
  const chain = [peer];
  for (let i = reported.length - 1; i >= 0; i -= 1) {
    chain.push(reported[i]!.trim());
    if (!trust(chain[chain.length - 1]!, chain.length - 1)) break;
  }
  return chain.reverse().join(', ');
}

/** `req.protocol` of express: X-Forwarded-Proto's first entry when the peer is trusted. */
export function forwardedProto(req: IncomingMessage, trust: TrustProxyFn): string {
  const own = (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
  const header = first(req.headers['x-forwarded-proto']);
  if (!header || !trust(req.socket.remoteAddress ?? '', 0)) return own;
  const comma = header.indexOf(',');
  return (comma === -1 ? header : header.slice(0, comma)).trim();
}

/** `req.host` of express: X-Forwarded-Host's first entry when the peer is trusted, else Host. */
export function forwardedHost(req: IncomingMessage, trust: TrustProxyFn): string | undefined {
  const header = first(req.headers['x-forwarded-host']);
  if (header && trust(req.socket.remoteAddress ?? '', 0)) {
    const comma = header.indexOf(',');
    return (comma === -1 ? header : header.slice(0, comma)).trimEnd() || undefined;
  }
  return req.headers.host || undefined;
}

/** Request headers that describe one connection or were answered here: never forwarded. */
const NOT_FORWARDED = new Set([
  'host', // the upstream's own (undici sets it from the replica's origin)
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'expect', // answered by node already
  'forwarded', // replaced by the X-Forwarded-* the gateway vouches for
  'content-length',
  'x-forwarded-for',
  'x-forwarded-proto',
  'x-forwarded-host',
  REQUEST_ID_HEADER,
  // A client's trace context is not trusted at the public edge: the gateway starts a new trace
  // and, when tracing is on, sends its own traceparent upstream (docs/security.md).
  'traceparent',
  'tracestate',
  'baggage',
]);

/**
 * The headers the gateway sends upstream, built once per request from the incoming ones:
 * - `x-request-id`: the gateway's request id (a well-formed incoming id is reused);
 * - `x-forwarded-for` is rewritten, not appended: entries the gateway does not trust are dropped;
 * - `x-forwarded-proto` / `x-forwarded-host`: as the client used them (honouring TRUST_PROXY);
 * - the body is forwarded with an exact `content-length` (undici sets it from the Buffer),
 *   without `transfer-encoding`, `content-encoding` when it was inflated, `expect` or `forwarded`.
 */
export function upstreamHeaders(
  req: IncomingMessage,
  trust: TrustProxyFn,
  requestId: string,
  inflated: boolean,
): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  const incoming = req.headers;
  for (const name in incoming) {
    if (NOT_FORWARDED.has(name)) continue;
    if (inflated && name === 'content-encoding') continue;
    const value = incoming[name];
    if (value !== undefined) out[name] = value;
  }
  out[REQUEST_ID_HEADER] = requestId;
  out['x-forwarded-for'] = forwardedFor(req, trust);
  out['x-forwarded-proto'] = forwardedProto(req, trust);
  const host = forwardedHost(req, trust);
  if (host) out['x-forwarded-host'] = host;
  return out;
}
