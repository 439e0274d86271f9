import type { Request, Response } from 'express';
import { VC_JWT_MEDIA_TYPE } from '@itp/schemas';
import type { SignedStatusList } from '../status/status-list-publisher.js';

/**
 * Answers a signed status list: the compact JWT (`application/vc+jwt`) unless the client prefers
 * JSON (`Accept: application/json`: the VC JSON with proof.jwt). Both forms carry
 * `Cache-Control: public, max-age`, their own strong ETag (from the JWT's hash) and `Vary:
 * Accept`; an If-None-Match naming the ETag answers 304 without a body.
 */
export function sendStatusList(
  req: Request,
  res: Response,
  signed: SignedStatusList,
  maxAgeSeconds: number,
): void {
  const json = req.accepts([VC_JWT_MEDIA_TYPE, 'application/json']) === 'application/json';
  const etag = `"${signed.hash}${json ? '.json' : ''}"`;
  res.setHeader('Cache-Control', `public, max-age=${maxAgeSeconds}`);
  res.setHeader('ETag', etag);
  res.vary('Accept');
  if (matches(req.headers['if-none-match'], etag)) {
    res.status(304).end();
    return;
  }
  const body = json ? JSON.stringify(signed.credential) : signed.jwt;
  res.status(200);
  res.setHeader('Content-Type', json ? 'application/json; charset=utf-8' : VC_JWT_MEDIA_TYPE);
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}

/** If-None-Match (a list of entity tags, weak ones compared weakly, or `*`) names `etag`. */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === etag);
}
