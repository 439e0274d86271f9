import { TooManyRequestsError } from '@itp/errors';
import { sha256Hex } from '@itp/crypto';
import { FixedWindowLimiter, type KvStore, type OverLimit } from '@itp/stores';

export interface FailureCounterOptions {
  /** Names the counter in its keys, e.g. `login-id`. */
  name: string;
  /** Failures allowed within the window; the next attempt gets 429. */
  max: number;
  windowMs: number;
  /** The 429's message (default: too many failed attempts), for a limit of attempts, not failures. */
  message?: string;
}

/**
 * Failure counters over @itp/stores' FixedWindowLimiter (the platform's one limiter, ADR 0029),
 * in the KvStore (shared by every instance): `rl:<name>:<sha256(subject)>`, created by the first
 * count with a TTL of the window (a fixed window). A subject at the limit gets
 * TooManyRequestsError with Retry-After = the counter's remaining time to live.
 *
 * Two ways to count:
 * - `check` before the work and `recordFailure` after a failure: successes and errors that are
 *   no credential failure are free (per client IP, per (user id, client IP), per client IP of
 *   relying parties). Concurrent attempts can overshoot by their number.
 * - `take` counts the attempt itself, atomically, before the work; `reset` after a success.
 *   Not for anything a stranger can trigger for someone else: a wall per user id let anyone
 *   lock a user out (password login uses FailureBackoff per id instead).
 */
export class FailureCounter {
  private readonly limiter: FixedWindowLimiter;

  constructor(
    kv: KvStore,
    private readonly options: FailureCounterOptions,
  ) {
    this.limiter = new FixedWindowLimiter(kv);
  }

  private key(subject: string): string {
    return `rl:${this.options.name}:${sha256Hex(subject)}`;
  }

  private refuse(over: OverLimit | null): void {
    if (over === null) return;
    const message = this.options.message ?? 'Too many failed attempts; try again later';
    throw new TooManyRequestsError(message, over.retryAfterSeconds, {
      details: { limit: this.options.name },
    });
  }

  async check(subject: string): Promise<void> {
    this.refuse(await this.limiter.check(this.key(subject), this.options));
  }

  /** The failures counted for `subject` in the current window (0 when none). */
  failures(subject: string): Promise<number> {
    return this.limiter.count(this.key(subject));
  }

  async recordFailure(subject: string): Promise<void> {
    await this.limiter.add(this.key(subject), this.options.windowMs);
  }

  async take(subject: string): Promise<void> {
    this.refuse(await this.limiter.hit(this.key(subject), this.options));
  }

  async reset(subject: string): Promise<void> {
    await this.limiter.reset(this.key(subject));
  }
}
