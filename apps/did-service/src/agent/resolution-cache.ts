import type { DIDCache, DIDResolutionResult, ParsedDID, WrappedResolver } from 'did-resolver';
import { LRUCache } from 'lru-cache';

export interface ResolutionCacheOptions {
  /** How long a resolved DID document is reused; 0 = no cache. */
  ttlMs: number;
  /** Most DIDs kept (least recently used ones are dropped first). */
  max: number;
  /** Clock in milliseconds (tests); default performance.now(). */
  now?: () => number;
}

/**
 * A did-resolver cache with a time to live (did-resolver's own `cache: true` never expires).
 * Concurrent resolutions of one DID share one chain lookup; failed resolutions are not kept;
 * the DID parameter `;no-cache=true` bypasses the cache. Callers get their own copy of the result.
 */
export function createResolutionCache(options: ResolutionCacheOptions): DIDCache {
  if (options.ttlMs <= 0) return (_parsed, resolve) => resolve();
  const cache = new LRUCache<string, Promise<DIDResolutionResult>>({
    max: options.max,
    ttl: options.ttlMs,
    // Read the clock on every look-up (no 1 ms timer-cached "now").
    ttlResolution: 0,
    ...(options.now ? { perf: { now: options.now } } : {}),
  });
  return async (parsed: ParsedDID, resolve: WrappedResolver): Promise<DIDResolutionResult> => {
    if (parsed.params?.['no-cache'] === 'true') return resolve();
    const key = parsed.didUrl;
    let entry = cache.get(key);
    if (!entry) {
      const pending = resolve().then(
        (result) => {
          if (result.didResolutionMetadata?.error && cache.get(key) === pending) cache.delete(key);
          return result;
        },
        (err: unknown) => {
          if (cache.get(key) === pending) cache.delete(key);
          throw err;
        },
      );
      cache.set(key, pending);
      entry = pending;
    }
    return structuredClone(await entry);
  };
}
