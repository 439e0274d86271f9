import { BadGatewayError, BadRequestError, BaseError, PayloadTooLargeError } from '@itp/errors';

/**
 * The gateway's own answers: it forwards everything else as the services answered it. Each is a
 * BaseError (its class code is `error.code`, its status the HTTP status); http/gateway-routes.ts
 * and upstreams/upstream-failure.ts turn them into the REST body or, for a JSON-RPC path whose
 * upstream failed, the JSON-RPC transport-error envelope.
 */

/** A path with dot segments (`/v2/auth/../internal`): never normalised, never forwarded. */
export class InvalidPathError extends BadRequestError {
  constructor() {
    super('Invalid path');
  }
}

/** A request body over BODY_LIMIT_BYTES, whether it declared its size or streamed it. */
export class BodyTooLargeError extends PayloadTooLargeError {
  constructor() {
    super('Request body is larger than the limit');
  }
}

/** A Content-Encoding the gateway does not take (identity, gzip, deflate and br it does). */
export class UnsupportedEncodingError extends BaseError {
  static override readonly code: string = '415';
  readonly status = 415;

  constructor() {
    super('Unsupported Content-Encoding');
  }
}

/** A compressed body that does not inflate. */
export class CorruptBodyError extends BadRequestError {
  constructor() {
    super('Bad request');
  }
}

/** No connection to the upstream, or a broken one (refused, reset, closed while answering). */
export class UpstreamUnavailableError extends BadGatewayError {
  constructor(upstream: string) {
    super(`${upstream} is unavailable`);
  }
}

/** The upstream did not answer within UPSTREAM_TIMEOUT_MS. */
export class UpstreamTimeoutError extends BaseError {
  static override readonly code: string = '504';
  readonly status = 504;

  constructor(upstream: string, timeoutMs: number) {
    super(`${upstream} did not answer within ${timeoutMs} ms`);
  }
}
