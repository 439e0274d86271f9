/**
 * Every failure the platform reports on purpose is a BaseError subclass. Each subclass carries a
 * `static code` (the string put in `error.code` of a REST body and in `result.resultCode` of a
 * JSON-RPC service error) and the HTTP status it maps to. Errors become HTTP or JSON-RPC only at
 * the edge (service-kit's error handler, jsonrpc's server); domain code just throws.
 */
export interface BaseErrorOptions {
  cause?: unknown;
  /** Extra, non-secret details for logs (never sent to clients). */
  details?: Record<string, unknown>;
}

export abstract class BaseError extends Error {
  static readonly code: string = '500';
  abstract readonly status: number;
  readonly details: Record<string, unknown> | undefined;

  constructor(message: string, options: BaseErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.details = options.details;
  }

  /**
   * Whether the message may be shown to the caller. Internal failures (status 500) are not: the
   * edge answers a generic text with the request id and logs this message. A subclass whose 500
   * message is meant for the caller (e.g. "the chain refused the transaction") sets it to true.
   */
  get expose(): boolean {
    return this.status !== 500;
  }

  /** The string code of this error's class (`error.code` / `resultCode`). */
  get code(): string {
    return (this.constructor as typeof BaseError).code;
  }
}

export function isBaseError(value: unknown): value is BaseError {
  return value instanceof BaseError;
}
