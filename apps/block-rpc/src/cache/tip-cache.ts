import { LRUCache } from 'lru-cache';
import type { CacheMetrics } from './cache-metrics.js';
import { SingleFlight } from './single-flight.js';

/**
 * Short-lived, in-process cache for answers that may still change (tags, blocks above the final
 * ones, pending transactions). A found value is kept for `ttlMs` (0: not kept); `null` (not found)
 * and errors are never kept. Concurrent loads of one key share one node request.
 */
export class TipCache {
  private readonly lru: LRUCache<string, { value: unknown }> | undefined;
  private readonly flight = new SingleFlight();

  /** `now`: the clock the TTL is measured on (default: lru-cache's own, performance.now). */
  constructor(
    private readonly ttlMs: number,
    maxEntries: number,
    private readonly metrics: CacheMetrics,
    now?: () => number,
  ) {
    this.lru =
      ttlMs > 0
        ? new LRUCache({
            max: maxEntries,
            ttl: ttlMs,
            // An injected clock is read at every access (lru-cache would reuse a reading for 1 ms).
            ...(now ? { perf: { now }, ttlResolution: 0 } : {}),
          })
        : undefined;
  }

  async getOrLoad<T>(key: string, load: () => Promise<T | null>): Promise<T | null> {
    const hit = this.lru?.get(key);
    if (hit) {
      this.metrics.record('tip', 'memory');
      return hit.value as T;
    }
    this.metrics.record('tip', 'miss');
    return this.flight.run(key, async () => {
      const value = await load();
      if (value !== null) this.lru?.set(key, { value });
      return value;
    });
  }

  /** Forgets every entry (e.g. after a reorg was seen). */
  clear(): void {
    this.lru?.clear();
  }
}
