/** Where a failure came from. */
export type ItpErrorSource =
  /** a REST answer of /v2/auth or /v2/did (or a JSON error of the gateway): `{ error: { code, message } }` */
  | 'rest'
  /** a JSON-RPC protocol error: `{ error: { code: <integer>, message, msg } }` */
  | 'jsonrpc'
  /** a JSON-RPC service error: `result.resultCode` other than "200" */
  | 'service'
  /** no usable answer: the network failed, the request timed out or was aborted, or the answer was not what the API documents */
  | 'client';

export interface ItpErrorOptions {
  source: ItpErrorSource;
  /** the code as the API sent it (a string for REST / service errors, an integer for JSON-RPC errors) */
  code?: string | number;
  /** HTTP status of the answer, when there was one */
  status?: number;
  /** the REST path (e.g. `/v2/auth/auth-user`) or JSON-RPC method that failed */
  operation?: string;
  /** seconds to wait before trying again (Retry-After, or the "retry in N s" of a service error) */
  retryAfter?: number;
  /** `error.data` of a JSON-RPC error, `error.details` of a REST error */
  data?: unknown;
  cause?: unknown;
}

/**
 * The base of every error the SDK throws. Each subclass has a `static code` (the API's code it
 * stands for), so `err instanceof InsufficientFundsError` and `err.code === '402'` both work.
 */
export class ItpError extends Error {
  static readonly code: string | number = 'ITP_ERROR';

  readonly source: ItpErrorSource;
  readonly code: string | number;
  readonly status: number | undefined;
  readonly operation: string | undefined;
  readonly retryAfter: number | undefined;
  readonly data: unknown;

  constructor(message: string, options: ItpErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.source = options.source;
    this.code = options.code ?? (new.target as typeof ItpError).code;
    this.status = options.status;
    this.operation = options.operation;
    this.retryAfter = options.retryAfter;
    this.data = options.data;
  }
}

/** A constructor of an ItpError subclass, as the code tables hold them. */
export type ItpErrorClass = (new (message: string, options: ItpErrorOptions) => ItpError) & {
  readonly code: string | number;
};
