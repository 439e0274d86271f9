import { Counter, type Registry } from 'prom-client';

/** Where a cache lookup was answered. */
export type CacheOutcome = 'memory' | 'kv' | 'miss';

export interface CacheMetrics {
  record(cache: 'final' | 'tip', outcome: CacheOutcome): void;
}

/** `block_cache_lookups_total{cache, outcome}` on the service's registry. */
export function createCacheMetrics(registry: Registry): CacheMetrics {
  const lookups = new Counter({
    name: 'block_cache_lookups_total',
    help: 'Cache lookups of the block API by cache (final: immutable data, tip: short TTL) and outcome',
    labelNames: ['cache', 'outcome'] as const,
    registers: [registry],
  });
  return { record: (cache, outcome) => lookups.inc({ cache, outcome }) };
}

export const noCacheMetrics: CacheMetrics = { record: () => undefined };
