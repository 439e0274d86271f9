import { sha256Hex } from '@itp/crypto';
import type { KvStore } from '@itp/stores';
import { SlowDownError } from '../errors.js';

/**
 * At most one poll per `minIntervalMs` per subject (a client and its request): a marker key with
 * that TTL, set only when absent. A poll that finds the marker gets SlowDownError (429) with
 * Retry-After = the marker's remaining time. `minIntervalMs` 0 turns the throttle off.
 */
export class PollThrottle {
  constructor(
    private readonly kv: KvStore,
    private readonly minIntervalMs: number,
  ) {}

  async pass(subject: string): Promise<void> {
    if (this.minIntervalMs <= 0) return;
    const key = `poll:${sha256Hex(subject)}`;
    if (await this.kv.set(key, '1', { ttlMs: this.minIntervalMs, onlyIfAbsent: true })) return;
    const remaining = (await this.kv.ttlMs(key)) ?? this.minIntervalMs;
    throw new SlowDownError(
      `Polling too fast: wait at least ${this.minIntervalMs} ms between polls`,
      remaining / 1000,
    );
  }
}
