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

/**
 * RFC 9470 step-up: the bearer token is valid, but the user last proved a factor too long ago for
 * this operation (adding a way into the account). HTTP 401 with
 * `WWW-Authenticate: Bearer error="insufficient_user_authentication", error_description="…",
 * max_age=<seconds>`; the client logs in again and retries with the new token.
 */
export class InsufficientUserAuthenticationError extends UnauthorizedError {
  static override readonly code: string = 'insufficient_user_authentication';
  /** The longest age (seconds) of the last authentication this operation accepts. */
  readonly maxAgeSeconds: number;

  constructor(maxAgeSeconds: number, options?: BaseErrorOptions) {
    super(
      `This operation needs a login within the last ${maxAgeSeconds} seconds: log in again ` +
        '(password or any other way in) and retry with the new token',
      options,
    );
    this.maxAgeSeconds = maxAgeSeconds;
  }

  /** The challenge sent as `WWW-Authenticate` (RFC 9470 §3). */
  get wwwAuthenticate(): string {
    return (
      `Bearer error="insufficient_user_authentication", ` +
      `error_description="A more recent authentication is required", max_age=${this.maxAgeSeconds}`
    );
  }
}
