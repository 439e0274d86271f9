import { InternalError } from '@itp/errors';

/**
 * The failures of the block API. Each BaseError's class code becomes `result.resultCode` of a
 * JSON-RPC service error and its message `resultMessage`. The codes and when each is answered are
 * in the catalog, BLOCK_SERVICE_ERRORS (@itp/schemas); "chain node unavailable" is @itp/chain's
 * ChainUnavailableError (503), as on /token.
 */

/** The node answered, but not with the shape the Ethereum JSON-RPC spec gives (code "500"). */
export class NodeAnswerError extends InternalError {
  constructor(what: string, field: string) {
    super(`The chain node sent a malformed ${what} (field ${field})`);
  }
}

/**
 * Too many calls from one client address in the current minute (code "429",
 * RATE_LIMIT_READ_PER_MINUTE): @itp/stores' RateLimiter, as on /token.
 */
export { RateLimitedError } from '@itp/stores';
