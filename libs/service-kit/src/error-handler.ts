import type { ErrorRequestHandler, RequestHandler } from 'express';
import { DEFAULT_RETRY_AFTER_SECONDS, isBaseError } from '@itp/errors';
import type { Logger } from './logger.js';

export interface ErrorBody {
  error: { code: string; message: string };
}

export function errorBody(code: string, message: string): ErrorBody {
  return { error: { code, message } };
}

interface BodyParserError {
  type?: string;
  status?: number;
  expose?: boolean;
}

/**
 * Maps errors to the REST error shape of docs/api.md §2.3. Never a stack trace; 500 only for bugs.
 * 429 and every 503 (a dependency down: ServiceUnavailableError) carry `Retry-After`; an error
 * with a `wwwAuthenticate` challenge (step-up, RFC 9470) sends it as `WWW-Authenticate`.
 */
export function restErrorHandler(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    if (res.headersSent) {
      req.socket.destroy();
      return;
    }
    if (isBaseError(err)) {
      if (err.status >= 500) logger.error({ err, reqId: req.id }, err.message);
      if ('retryAfterSeconds' in err && typeof err.retryAfterSeconds === 'number') {
        res.setHeader('Retry-After', String(err.retryAfterSeconds));
      } else if (err.status === 503) {
        // Every 503 says when to come back (a BaseError subclass of its own without the field).
        res.setHeader('Retry-After', String(DEFAULT_RETRY_AFTER_SECONDS));
      }
      // A challenge of its own (RFC 6750 / RFC 9470 step-up): InsufficientUserAuthenticationError.
      if ('wwwAuthenticate' in err && typeof err.wwwAuthenticate === 'string') {
        res.setHeader('WWW-Authenticate', err.wwwAuthenticate);
      }
      const message = err.expose ? err.message : internalErrorMessage(req.id);
      res.status(err.status).json(errorBody(err.code, message));
      return;
    }
    const parserError = err as BodyParserError;
    if (parserError?.type === 'entity.too.large') {
      res.status(413).json(errorBody('413', 'Request body is larger than the limit'));
      return;
    }
    if (parserError?.type === 'entity.parse.failed') {
      res.status(400).json(errorBody('400', 'Malformed JSON body'));
      return;
    }
    if (parserError?.expose && typeof parserError.status === 'number' && parserError.status < 500) {
      res.status(parserError.status).json(errorBody(String(parserError.status), 'Bad request'));
      return;
    }
    logger.error({ err, reqId: req.id }, 'unhandled error');
    res.status(500).json(errorBody('500', internalErrorMessage(req.id)));
  };
}

/**
 * What a caller sees of an internal failure: a generic text and the request id to quote to the
 * operator, who finds the detail in the log line with that id. Never the failure's own text.
 */
export function internalErrorMessage(requestId: unknown): string {
  return requestId === undefined || requestId === null || requestId === ''
    ? 'Internal error'
    : `Internal error (request id ${String(requestId)})`;
}

export const notFoundHandler: RequestHandler = (req, res) => {
  res.status(404).json(errorBody('404', `No route for ${req.method} ${req.path}`));
};
