import express, { type Router } from 'express';
import { DEFAULT_RETRY_AFTER_SECONDS } from '@itp/errors';
import { oid4vpAuthorizationResponseSchema } from '@itp/schemas';
import { oauthErrorHandler, type Logger, type OAuthRefusal } from '@itp/service-kit';
import { OAuthError } from '../oid4vp/oauth-error.js';
import { walletErrorResponseSchema } from '../oid4vp/wallet-error-response.js';
import type { Oid4vpLogin } from '../oid4vp/oid4vp-login.js';

export interface Oid4vpRouterDeps {
  oid4vp: Oid4vpLogin;
  bodyLimitBytes: number;
  logger: Logger;
}

/** The media type of a request object (RFC 9101 §10.2). */
export const REQUEST_OBJECT_MEDIA_TYPE = 'application/oauth-authz-req+jwt';

/** The router's own refusals (OAuthError) as thrown, a 503 with its Retry-After. */
function oid4vpRefusal(err: unknown): OAuthRefusal | undefined {
  if (!(err instanceof OAuthError)) return undefined;
  const retryAfter = err.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS;
  return {
    status: err.status,
    body: err.body,
    ...(err.status === 503 ? { headers: { 'Retry-After': String(retryAfter) } } : {}),
  };
}

/**
 * `/v2/auth/oid4vp` (contract §8, docs/api.md §2): what a wallet calls. No client credentials:
 * the unguessable one-time id in the path is the capability.
 */
export function oid4vpRouter(deps: Oid4vpRouterDeps): Router {
  const router = express.Router();
  const form = express.urlencoded({
    extended: false,
    limit: deps.bodyLimitBytes,
    type: 'application/x-www-form-urlencoded',
  });

  router.get('/request/:id', async (req, res) => {
    const requestObject = await deps.oid4vp.takeRequestObject(req.params.id);
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Content-Type', REQUEST_OBJECT_MEDIA_TYPE);
    // end(), not send(): the media type exactly, without a charset parameter.
    res.status(200).end(requestObject);
  });

  router.post('/response/:id', form, async (req, res) => {
    if (typeof req.body === 'object' && req.body !== null && 'error' in req.body) {
      const declined = walletErrorResponseSchema.safeParse(req.body);
      if (!declined.success) {
        throw new OAuthError(
          400,
          'invalid_request',
          'An error response needs error and state, once each',
        );
      }
      await deps.oid4vp.decline(req.params.id, declined.data.state, declined.data.error);
      res.setHeader('Cache-Control', 'no-store');
      res.status(200).json({});
      return;
    }
    const parsed = oid4vpAuthorizationResponseSchema.safeParse(req.body);
    if (!parsed.success) {
      const members = [
        ...new Set(parsed.error.issues.map((issue) => String(issue.path[0] ?? 'body'))),
      ];
      throw new OAuthError(
        400,
        'invalid_request',
        `The form body (application/x-www-form-urlencoded) needs vp_token and state, once each (${members.join(', ')})`,
      );
    }
    await deps.oid4vp.answer(req.params.id, parsed.data.vp_token, parsed.data.state);
    res.setHeader('Cache-Control', 'no-store');
    res.status(200).json({});
  });

  router.use(oauthErrorHandler(deps.logger, oid4vpRefusal));
  return router;
}
