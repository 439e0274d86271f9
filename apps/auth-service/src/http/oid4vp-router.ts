import express, { type ErrorRequestHandler, type Response, type Router } from 'express';
import { DEFAULT_RETRY_AFTER_SECONDS, isBaseError } from '@itp/errors';
import { oid4vpAuthorizationResponseSchema, type OAuthErrorBody } from '@itp/schemas';
import type { Logger } from '@itp/service-kit';
import { OAuthError } from '../oid4vp/oauth-error.js';
import type { Oid4vpLogin } from '../oid4vp/oid4vp-login.js';

export interface Oid4vpRouterDeps {
  oid4vp: Oid4vpLogin;
  bodyLimitBytes: number;
  logger: Logger;
}

/** The media type of a request object (RFC 9101 §10.2). */
export const REQUEST_OBJECT_MEDIA_TYPE = 'application/oauth-authz-req+jwt';

function sendOAuthError(res: Response, status: number, body: OAuthErrorBody): void {
  res.status(status).json(body);
}

/**
 * Every failure of these routes in the OAuth error shape `{ error, error_description }` (what a
 * wallet reads), never the REST error body: refusals as thrown (OAuthError), the form parser's
 * answers (413 over BODY_LIMIT_BYTES, any other malformed body 400 invalid_request), a
 * dependency down 503 temporarily_unavailable + Retry-After, anything else 500 server_error
 * (the detail only in the log).
 */
function oauthErrorHandler(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    if (res.headersSent) {
      req.socket.destroy();
      return;
    }
    res.setHeader('Cache-Control', 'no-store');
    if (err instanceof OAuthError) {
      if (err.status === 503) {
        res.setHeader('Retry-After', String(err.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS));
      }
      sendOAuthError(res, err.status, err.body);
      return;
    }
    if (isBaseError(err) && err.status === 503) {
      res.setHeader('Retry-After', String(DEFAULT_RETRY_AFTER_SECONDS));
      sendOAuthError(res, 503, {
        error: 'temporarily_unavailable',
        error_description: 'The service is temporarily unavailable; try again later',
      });
      return;
    }
    const parser = err as { type?: string; status?: number; expose?: boolean };
    if (parser?.type === 'entity.too.large') {
      sendOAuthError(res, 413, {
        error: 'invalid_request',
        error_description: 'Request body is larger than the limit',
      });
      return;
    }
    if (parser?.expose && typeof parser.status === 'number' && parser.status < 500) {
      sendOAuthError(res, 400, {
        error: 'invalid_request',
        error_description: 'Malformed request body',
      });
      return;
    }
    logger.error({ err, reqId: req.id }, 'unhandled error');
    sendOAuthError(res, 500, {
      error: 'server_error',
      error_description: `Internal error (request id ${String(req.id)})`,
    });
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

  router.use(oauthErrorHandler(deps.logger));
  return router;
}
