import { LRUCache } from 'lru-cache';

export interface CachedReadsOptions<T> {
  /** The method whose successful answers are kept (Veramo's `getDID` / `getKey`). */
  read: keyof T & string;
  /** Methods that change what `read` answers: each clears the cache of this replica. */
  writes: Array<keyof T & string>;
  ttlMs: number;
  max: number;
  /** The clock the TTL is measured on (default: lru-cache's own, performance.now). */
  now?: () => number;
}

/**
 * A deep copy of a record read from a store: plain objects (also class instances such as
 * typeorm's entities, which come out as plain objects, as with structuredClone), arrays and
 * primitives copied directly; anything else (dates, binary data, maps) by structuredClone. The
 * records are small JSON-like trees, for which this costs a fraction of structuredClone (a
 * create-vc request copies about five of them).
 */
export function copyRecord<V>(value: V): V {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(copyRecord) as V;
  if (
    value instanceof Date ||
    value instanceof Map ||
    value instanceof Set ||
    value instanceof RegExp ||
    value instanceof Error ||
    value instanceof ArrayBuffer ||
    ArrayBuffer.isView(value)
  ) {
    return structuredClone(value);
  }
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const field = (value as Record<string, unknown>)[key];
    if (typeof field !== 'function') out[key] = copyRecord(field);
  }
  return out as V;
}

/**
 * `store` with the successful answers of one read method kept in memory for `ttlMs`, keyed by
 * its arguments; a write through the same store clears them. For Veramo records that never
 * change once written — a DID's identifier and keys, a key's metadata, the service's own private
 * keys (key rotation re-encrypts them at rest; their value stays) — so that create-vc and the
 * VP checks do not ask the database four times per request for the same rows. Failures (not found, a database outage) are never
 * kept. Each answer is a deep copy (copyRecord), so a caller that modifies what it got cannot change
 * what the next caller gets.
 */
export function cachedReads<T extends object>(store: T, options: CachedReadsOptions<T>): T {
  const cache = new LRUCache<string, object>({
    max: options.max,
    ttl: options.ttlMs,
    // An injected clock is read at every access (lru-cache would reuse a reading for 1 ms).
    ...(options.now ? { perf: { now: options.now }, ttlResolution: 0 } : {}),
  });
  return new Proxy(store, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => Promise<unknown>;
      if (property === options.read) {
        return async (...args: unknown[]) => {
          const key = JSON.stringify(args);
          const hit = cache.get(key);
          if (hit !== undefined) return copyRecord(hit);
          const answer = await method.apply(target, args);
          if (answer !== null && typeof answer === 'object') cache.set(key, copyRecord(answer));
          return answer;
        };
      }
      if ((options.writes as Array<string | symbol>).includes(property)) {
        return async (...args: unknown[]) => {
          try {
            return await method.apply(target, args);
          } finally {
            cache.clear();
          }
        };
      }
      return method.bind(target);
    },
  });
}
