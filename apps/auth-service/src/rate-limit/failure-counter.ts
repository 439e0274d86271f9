import { TooManyRequestsError } from '@itp/errors';
import { sha256Hex } from '@itp/crypto';
import type { KvStore } from '@itp/stores';

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
 * Failure counters in the KvStore (shared by every instance): `rl:<name>:<sha256(subject)>`,
 * created by the first failure with a TTL of the window (a fixed window). A subject at the limit
 * gets TooManyRequestsError with Retry-After = the counter's remaining time to live.
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
  constructor(
    private readonly kv: KvStore,
    private readonly options: FailureCounterOptions,
  ) {}

  private key(subject: string): string {
    return `rl:${this.options.name}:${sha256Hex(subject)}`;
  }

  private async refuse(key: string): Promise<never> {
    const ttl = (await this.kv.ttlMs(key)) ?? this.options.windowMs;
    const message = this.options.message ?? 'Too many failed attempts; try again later';
    throw new TooManyRequestsError(message, ttl / 1000, {
      details: { limit: this.options.name },
    });
  }

  async check(subject: string): Promise<void> {
    const key = this.key(subject);
    const count = Number((await this.kv.get(key)) ?? '0');
    if (count >= this.options.max) await this.refuse(key);
  }

  /** The failures counted for `subject` in the current window (0 when none). */
  async failures(subject: string): Promise<number> {
    return Number((await this.kv.get(this.key(subject))) ?? '0');
  }

  async recordFailure(subject: string): Promise<void> {
    await this.kv.incr(this.key(subject), { ttlMs: this.options.windowMs });
  }

  async take(subject: string): Promise<void> {
    const key = this.key(subject);
    const count = await this.kv.incr(key, { ttlMs: this.options.windowMs });
    if (count > this.options.max) await this.refuse(key);
  }

  async reset(subject: string): Promise<void> {
    await this.kv.del(this.key(subject));
  }
}
