import { BaseError, type BaseErrorOptions } from './base-error.js';

/** Malformed or invalid input. */
export class BadRequestError extends BaseError {
  static override readonly code: string = '400';
  readonly status = 400;
}

/** Missing or bad credentials. */
export class UnauthorizedError extends BaseError {
  static override readonly code: string = '401';
  readonly status = 401;
}

/** Authenticated, but not allowed. */
export class ForbiddenError extends BaseError {
  static override readonly code: string = '403';
  readonly status = 403;
}

export class NotFoundError extends BaseError {
  static override readonly code: string = '404';
  readonly status = 404;
}

/** The request conflicts with what is stored (already used, already taken). */
export class ConflictError extends BaseError {
  static override readonly code: string = '409';
  readonly status = 409;
}

export class PayloadTooLargeError extends BaseError {
  static override readonly code: string = '413';
  readonly status = 413;
}

export class TooManyRequestsError extends BaseError {
  static override readonly code: string = '429';
  readonly status = 429;
  /** Seconds the client should wait (sent as `Retry-After`). */
  readonly retryAfterSeconds: number;

  constructor(message: string, retryAfterSeconds: number, options?: BaseErrorOptions) {
    super(message, options);
    this.retryAfterSeconds = Math.max(1, Math.ceil(retryAfterSeconds));
  }
}

/** Something the service depends on failed (chain, database, upstream service). */
export class InternalError extends BaseError {
  static override readonly code: string = '500';
  readonly status = 500;
}

export class BadGatewayError extends BaseError {
  static override readonly code: string = '502';
  readonly status = 502;
}

/** What a client is told to wait (`Retry-After`) when nothing more precise is known. */
export const DEFAULT_RETRY_AFTER_SECONDS = 5;

export interface ServiceUnavailableErrorOptions extends BaseErrorOptions {
  /** Seconds after which a retry may succeed; default DEFAULT_RETRY_AFTER_SECONDS. */
  retryAfterSeconds?: number;
}

/**
 * A dependency is down or unreachable (database, Redis, chain node, another service), or the
 * service is shutting down: nothing is wrong with the request, the same request may succeed
 * later. REST: HTTP 503 with `Retry-After`; JSON-RPC: `resultCode` "503".
 */
export class ServiceUnavailableError extends BaseError {
  static override readonly code: string = '503';
  readonly status = 503;
  /** Seconds the client should wait before retrying (sent as `Retry-After`), at least 1. */
  readonly retryAfterSeconds: number;

  constructor(message: string, options: ServiceUnavailableErrorOptions = {}) {
    super(message, options);
    const seconds = options.retryAfterSeconds;
    this.retryAfterSeconds =
      seconds !== undefined && Number.isFinite(seconds)
        ? Math.max(1, Math.ceil(seconds))
        : DEFAULT_RETRY_AFTER_SECONDS;
  }
}
