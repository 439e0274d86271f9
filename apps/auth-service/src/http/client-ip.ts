import type { Request } from 'express';

/** The caller's address as express determined it (honouring TRUST_PROXY). */
export function clientIp(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}
