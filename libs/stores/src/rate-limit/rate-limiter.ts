import { InternalError, isBaseError, TooManyRequestsError } from '@itp/errors';
import { clientGroup } from '@itp/service-kit';
import type { KvStore } from '../kv/kv-store.js';
import { FixedWindowLimiter } from './fixed-window-limiter.js';

/** One limit: at most `max` calls per client address in each window; `max` 0 turns it off. */
export interface RateLimit {
  /** Names the counter (`ratelimit:<name>:<client>`) and the calls in the message. */
  name: string;
  /** What is counted, for the message (e.g. "createAddress/importAddress calls"). */
  what: string;
  max: number;
  windowMs: number;
}

/** The client address a call is counted for when the transport does not say (never expected). */
export const UNKNOWN_CLIENT = 'unknown';

/** Too many calls of one kind from one client address in the current window (code "429"). */
export class RateLimitedError extends TooManyRequestsError {}

/**
 * Per-client limits over the one FixedWindowLimiter (ADR 0029), so that every replica counts
 * together: `ratelimit:<name>:<client>`, one atomic hit per call (each call of a batch counts on
 * its own). A counter's window starts with its first call and lasts `windowMs`. Over the limit:
 * RateLimitedError (code "429") saying in how many seconds the window ends. The counter store
 * failing is an error too (a BaseError of the store as it is, anything else an internal error):
 * the call is not served unlimited. The JSON-RPC APIs (token-rpc, block-rpc) count their calls
 * with it (@itp/jsonrpc's rateLimitedMethods), did-service its OpenID4VCI nonces. A client is its
 * address as service-kit's `clientGroup` counts it (IPv6 by /64).
 */
export class RateLimiter {
  private readonly limiter: FixedWindowLimiter;

  constructor(kv: KvStore) {
    this.limiter = new FixedWindowLimiter(kv);
  }

  async take(limit: RateLimit, client: string | undefined): Promise<void> {
    if (limit.max <= 0) return;
    // IPv4 as it is, IPv6 by its /64: one subscriber's network is one client.
    const key = `ratelimit:${limit.name}:${clientGroup(client ?? UNKNOWN_CLIENT)}`;
    const over = await this.store(() => this.limiter.hit(key, limit));
    if (over === null) return;
    throw new RateLimitedError(
      `too many ${limit.what} from this client (at most ${limit.max} per ${describeWindow(limit.windowMs)}): ` +
        `retry in ${over.retryAfterSeconds} s`,
      over.retryAfterSeconds,
    );
  }

  private async store<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (err) {
      if (isBaseError(err)) throw err;
      throw new InternalError('the rate-limit store (Redis) is unavailable', { cause: err });
    }
  }
}

function describeWindow(windowMs: number): string {
  if (windowMs === 60_000) return 'minute';
  if (windowMs % 1000 === 0) return `${windowMs / 1000} s`;
  return `${windowMs} ms`;
}
