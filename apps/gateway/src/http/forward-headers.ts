import type { Request, RequestHandler } from 'express';
import { REQUEST_ID_HEADER } from '@itp/service-kit';

/** The address chain the gateway vouches for: trusted proxies' reports (per TRUST_PROXY), then its peer. */
export function forwardedFor(req: Request): string {
  const peer = req.socket.remoteAddress;
  return [...req.ips, ...(peer ? [peer] : [])].join(', ');
}

/**
 * Prepares the request headers the proxy copies upstream. They are set on `req.headers` (not on the
 * outgoing request) because the outgoing headers may already be flushed when the proxy hands over
 * the connection:
 * - `x-request-id`: the gateway's request id (pino-http's, which reuses a well-formed incoming id);
 * - `x-forwarded-for` is rewritten, not appended: entries the gateway does not trust are dropped,
 *   so the leftmost entry is the client as the gateway determined it (`req.ip`);
 * - `x-forwarded-proto` / `x-forwarded-host`: as the client used them (honouring TRUST_PROXY);
 * - the body read by readBody is forwarded with an exact `content-length`, without
 *   `transfer-encoding`, `content-encoding` (already inflated) or `expect` (already answered).
 */
export const prepareForwardedRequest: RequestHandler = (req, _res, next) => {
  const headers = req.headers;
  headers[REQUEST_ID_HEADER] = String(req.id);
  headers['x-forwarded-for'] = forwardedFor(req);
  headers['x-forwarded-proto'] = req.protocol;
  const host = req.host;
  if (host) headers['x-forwarded-host'] = host;
  else delete headers['x-forwarded-host'];
  delete headers.forwarded;
  delete headers.expect;
  const body: unknown = req.body;
  if (Buffer.isBuffer(body)) {
    headers['content-length'] = String(body.length);
    delete headers['transfer-encoding'];
    delete headers['content-encoding'];
  }
  next();
};
