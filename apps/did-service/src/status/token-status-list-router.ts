import { Router, type Request, type Response } from 'express';
import { StatusListNotFoundError } from '../errors.js';
import { isStatusListId } from './status-list-urls.js';
import type {
  SignedTokenStatusList,
  TokenStatusListPublisher,
} from './token-status-list-publisher.js';
import { STATUS_LIST_JWT_MEDIA_TYPE, TOKEN_STATUS_LISTS_PATH } from './token-status-list-urls.js';

export interface TokenStatusListRouterDeps {
  publisher: TokenStatusListPublisher;
  /** Cache-Control max-age (STATUS_LIST_MAX_AGE_SECONDS), the tokens' `ttl`. */
  maxAgeSeconds: number;
}

/**
 * GET /v2/did/token-status-lists/<listId> (docs/api.md §15), public, no authentication: the
 * status list token of SD-JWT VCs (`application/statuslist+jwt`). 404 for an unknown list, a
 * W3C list, or when SD-JWT issuance is off.
 */
export function tokenStatusListRouter(deps: TokenStatusListRouterDeps): Router {
  const router = Router();
  router.get(`${TOKEN_STATUS_LISTS_PATH}/:listId`, async (req, res) => {
    const { listId } = req.params;
    const token = isStatusListId(listId) ? await deps.publisher.current(listId) : undefined;
    if (!token) throw new StatusListNotFoundError();
    sendTokenStatusList(req, res, token, deps.maxAgeSeconds);
  });
  return router;
}

/**
 * The token with `Cache-Control: public, max-age` and its weak ETag; 304 without a body when
 * If-None-Match names it (weak comparison, RFC 9110 §13.1.2).
 */
function sendTokenStatusList(
  req: Request,
  res: Response,
  token: SignedTokenStatusList,
  maxAgeSeconds: number,
): void {
  res.setHeader('Cache-Control', `public, max-age=${maxAgeSeconds}`);
  res.setHeader('ETag', token.etag);
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  const asked = req.headers['if-none-match'];
  if (asked?.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(token.etag))) {
    res.status(304).end();
    return;
  }
  res.status(200);
  res.setHeader('Content-Type', STATUS_LIST_JWT_MEDIA_TYPE);
  res.setHeader('Content-Length', Buffer.byteLength(token.jwt));
  res.end(token.jwt);
}
