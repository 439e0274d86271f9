import {
  InternalError,
  ServiceUnavailableError,
  type ServiceUnavailableErrorOptions,
} from '@itp/errors';

/**
 * The chain node could not be reached or did not answer JSON-RPC: connection refused, timeout,
 * an HTTP error page, a body that is not JSON. A dependency that is down: code "503" (HTTP 503
 * on REST, `resultCode` "503" on /token and /block alike). The message never names the node's
 * URL (it may carry credentials or an API key).
 */
export class ChainUnavailableError extends ServiceUnavailableError {
  constructor(
    /** What happened, without the "Chain node unavailable: " prefix. */
    readonly reason: string,
    options?: ServiceUnavailableErrorOptions,
  ) {
    super(`Chain node unavailable: ${reason}`, options);
  }
}

/**
 * The node's circuit breaker is open (consecutive timeouts or connection failures): the call was
 * refused at once, without calling the node. Retry-After is the time left until the breaker lets
 * a probe through. Nothing was sent to the node.
 */
export class ChainCircuitOpenError extends ChainUnavailableError {
  constructor(failures: number, retryAfterMs: number, lastReason: string | undefined) {
    const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
    super(
      `${failures} consecutive calls failed${lastReason ? ` (last: ${lastReason})` : ''}; ` +
        `not called for another ${seconds} s (circuit open), nothing was sent`,
      { retryAfterSeconds: seconds },
    );
  }
}

/**
 * The node answered with a JSON-RPC error object. It keeps the node's code, message and data so
 * that callers can map the ones they expect (a revert, a nonce conflict) to their own errors; left
 * unmapped it is an internal failure, code "500", because the request was ours, not the client's.
 */
export class ChainRpcError extends InternalError {
  readonly rpcCode: number;
  readonly rpcMessage: string;
  readonly rpcData: unknown;

  constructor(method: string, rpcCode: number, rpcMessage: string, rpcData?: unknown) {
    super(`Chain node error ${rpcCode} on ${method}: ${rpcMessage}`);
    this.rpcCode = rpcCode;
    this.rpcMessage = rpcMessage;
    this.rpcData = rpcData;
  }
}

/** The node serves another chain than the configuration names (CHAIN_ID). */
export class ChainIdMismatchError extends InternalError {
  constructor(
    readonly expected: number,
    readonly actual: number,
  ) {
    super(`Chain id mismatch: configured CHAIN_ID ${expected}, node serves ${actual}`);
  }
}
