import type { KvStore } from '../kv/kv-store.js';

/** A fixed window: at most `max` hits per key in each window of `windowMs`. */
export interface FixedWindow {
  max: number;
  windowMs: number;
}

/** A hit or check over the limit: the count and in how many seconds the window ends (≥ 1). */
export interface OverLimit {
  count: number;
  retryAfterSeconds: number;
}

/**
 * The platform's one rate limiter (ADR 0029): fixed-window counters in the KvStore (Redis in
 * production), so that every replica counts together. A hit is one atomic operation, the
 * KvStore's `incr` with the window as the time to live of a counter it creates (on Redis one Lua
 * script: INCR, and PEXPIRE when the INCR created the key): M concurrent hits against a limit of
 * `max` let exactly `max` through, never more — nothing reads the count before writing it. The
 * window starts with the first hit and lasts `windowMs`. Only a refusal reads the counter's
 * remaining time to live, for Retry-After. Store failures propagate as the store throws them
 * (the callers decide what a failing limit answers).
 *
 * The callers name their keys: @itp/stores' RateLimiter (`ratelimit:<name>:<client>`, the
 * JSON-RPC limits of token-rpc and block-rpc, did-service's nonces) and auth-service's
 * FailureCounter (`rl:<name>:<sha256(subject)>`).
 */
export class FixedWindowLimiter {
  constructor(private readonly kv: KvStore) {}

  /** Counts one hit atomically; null when it is within the limit, else the refusal. */
  async hit(key: string, window: FixedWindow): Promise<OverLimit | null> {
    const count = await this.add(key, window.windowMs);
    return count <= window.max ? null : this.overLimit(key, count, window.windowMs);
  }

  /**
   * Counts one hit atomically without judging it (a failure counted after the work, judged by
   * the next `check`); returns the count in the current window.
   */
  add(key: string, windowMs: number): Promise<number> {
    return this.kv.incr(key, { ttlMs: windowMs });
  }

  /** Counts nothing: null while fewer than `max` hits were counted, else the refusal. */
  async check(key: string, window: FixedWindow): Promise<OverLimit | null> {
    const count = await this.count(key);
    return count < window.max ? null : this.overLimit(key, count, window.windowMs);
  }

  /** The hits counted in the current window (0 when none). */
  async count(key: string): Promise<number> {
    return Number((await this.kv.get(key)) ?? '0');
  }

  /** Forgets the counter: the next hit starts a new window. */
  async reset(key: string): Promise<void> {
    await this.kv.del(key);
  }

  private async overLimit(key: string, count: number, windowMs: number): Promise<OverLimit> {
    const remainingMs = (await this.kv.ttlMs(key)) ?? windowMs;
    return { count, retryAfterSeconds: Math.max(1, Math.ceil(remainingMs / 1000)) };
  }
}
