import { TooManyRequestsError } from '@itp/errors';
import { sha256Hex } from '@itp/crypto';
import type { KvStore } from '@itp/stores';

export interface FailureBackoffOptions {
  /** Names the counter in its keys, e.g. `login-id`. */
  name: string;
  /** Failures within the window that cost nothing; every further one sets a hold. */
  freeFailures: number;
  windowMs: number;
  /** The longest hold, in ms (LOGIN_ID_MAX_DELAY_SECONDS). */
  maxDelayMs: number;
}

/**
 * Slows a subject down without ever walling it off (per user id, across all client addresses):
 * failures are counted in `rl:<name>:<sha256(subject)>` (fixed window from the first failure);
 * once there are more than `freeFailures`, the n-th failure sets a hold
 * `rl:<name>:hold:<sha256(subject)>` of min(2^(n - freeFailures - 1) s, maxDelay). While a hold
 * runs, `check` refuses with 429 and Retry-After = the remaining hold; attempts refused that way
 * are not failures, so whoever causes failures gets at most one guess per hold. After the hold a
 * correct password works again: the owner never waits longer than maxDelay, however many
 * failures others caused.
 */
export class FailureBackoff {
  constructor(
    private readonly kv: KvStore,
    private readonly options: FailureBackoffOptions,
  ) {}

  private countKey(subject: string): string {
    return `rl:${this.options.name}:${sha256Hex(subject)}`;
  }

  private holdKey(subject: string): string {
    return `rl:${this.options.name}:hold:${sha256Hex(subject)}`;
  }

  /** The hold after the n-th failure within the window, in ms (0 while failures are free). */
  delayMsAfter(failures: number): number {
    const over = failures - this.options.freeFailures;
    if (over <= 0) return 0;
    // 2^(over-1) s, capped; the exponent is capped too so that it never overflows.
    return Math.min(2 ** Math.min(over - 1, 30) * 1000, this.options.maxDelayMs);
  }

  async check(subject: string): Promise<void> {
    const remainingMs = await this.kv.ttlMs(this.holdKey(subject));
    if (remainingMs !== null && remainingMs > 0) {
      throw new TooManyRequestsError(
        'Too many failed attempts; try again later',
        remainingMs / 1000,
        {
          details: { limit: this.options.name },
        },
      );
    }
  }

  async recordFailure(subject: string): Promise<void> {
    const failures = await this.kv.incr(this.countKey(subject), { ttlMs: this.options.windowMs });
    const delayMs = this.delayMsAfter(failures);
    if (delayMs > 0) await this.kv.set(this.holdKey(subject), String(failures), { ttlMs: delayMs });
  }

  async reset(subject: string): Promise<void> {
    await Promise.all([this.kv.del(this.countKey(subject)), this.kv.del(this.holdKey(subject))]);
  }
}
