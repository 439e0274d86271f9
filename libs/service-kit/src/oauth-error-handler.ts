import type { ErrorRequestHandler } from 'express';
import { DEFAULT_RETRY_AFTER_SECONDS, isBaseError } from '@itp/errors';
import type { Logger } from './logger.js';

/** An OAuth 2.0 error answer (RFC 6749 §5.2): what wallets and OAuth clients read. */
export interface OAuthRefusal {
  status: number;
  body: { error: string; error_description?: string };
  /** Extra headers (`WWW-Authenticate`, `Retry-After`). */
  headers?: Record<string, string>;
}

/**
 * The error handler of routes that OAuth clients and wallets call: every failure in the OAuth
 * error shape `{ error, error_description }` with `Cache-Control: no-store`, never the REST error
 * body. `refusalOf` maps the router's own refusals (its error class); then a dependency down is
 * 503 `temporarily_unavailable` + Retry-After, a body over the limit 413 and any other malformed
 * body 400 `invalid_request` (the body parsers' errors), anything else 500 `server_error` with the
 * request id (the detail only in the log).
 */
export function oauthErrorHandler(
  logger: Logger,
  refusalOf: (err: unknown) => OAuthRefusal | undefined,
): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    if (res.headersSent) {
      req.socket.destroy();
      return;
    }
    const send = ({ status, body, headers }: OAuthRefusal) => {
      res.setHeader('Cache-Control', 'no-store');
      for (const [name, value] of Object.entries(headers ?? {})) res.setHeader(name, value);
      res.status(status).json(body);
    };
    const refusal = refusalOf(err);
    if (refusal) return send(refusal);
    if (isBaseError(err) && err.status === 503) {
      return send({
        status: 503,
        body: {
          error: 'temporarily_unavailable',
          error_description: 'The service is temporarily unavailable; try again later',
        },
        headers: { 'Retry-After': String(DEFAULT_RETRY_AFTER_SECONDS) },
      });
    }
    const parser = err as { type?: string; status?: number; expose?: boolean };
    if (parser?.type === 'entity.too.large') {
      return send({
        status: 413,
        body: {
          error: 'invalid_request',
          error_description: 'Request body is larger than the limit',
        },
      });
    }
    if (parser?.expose && typeof parser.status === 'number' && parser.status < 500) {
      return send({
        status: 400,
        body: { error: 'invalid_request', error_description: 'Malformed request body' },
      });
    }
    logger.error({ err, reqId: req.id }, 'unhandled error');
    return send({
      status: 500,
      body: {
        error: 'server_error',
        error_description: `Internal error (request id ${String(req.id)})`,
      },
    });
  };
}
