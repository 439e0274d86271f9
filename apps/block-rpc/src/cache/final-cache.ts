import { LRUCache } from 'lru-cache';
import type { Logger } from '@itp/service-kit';
import type { KvStore } from '@itp/stores';
import type { CacheMetrics } from './cache-metrics.js';

export interface FinalCacheOptions {
  kv: KvStore;
  /** Most entries kept in process. */
  maxEntries: number;
  /** Most bytes (of JSON) kept in process. */
  maxBytes: number;
  /** Time to live of an entry in the KV store (it never changes; this only bounds memory). */
  kvTtlMs: number;
  /** Prefix of every key: the chain's namespace (see chainNamespace). */
  namespace: () => Promise<string>;
  logger: Logger;
  metrics: CacheMetrics;
}

interface Entry {
  value: unknown;
}

/**
 * The cache for data that can no longer change (blocks, transactions and receipts of final
 * blocks): an in-process LRU in front of the shared KV store (Redis in production). Values are JSON.
 * The KV store is best effort: when it fails, a lookup is a miss and a write is dropped (logged);
 * the answer then comes from the node.
 */
export class FinalCache {
  private readonly lru: LRUCache<string, Entry>;

  constructor(private readonly options: FinalCacheOptions) {
    this.lru = new LRUCache<string, Entry>({
      max: options.maxEntries,
      maxSize: options.maxBytes,
    });
  }

  async get<T>(name: string): Promise<T | undefined> {
    const key = (await this.options.namespace()) + name;
    const hit = this.lru.get(key);
    if (hit) {
      this.options.metrics.record('final', 'memory');
      return hit.value as T;
    }
    let text: string | null = null;
    try {
      text = await this.options.kv.get(key);
    } catch (err) {
      this.options.logger.warn({ err, key }, 'block cache: KV read failed, asking the node');
    }
    if (text === null) {
      this.options.metrics.record('final', 'miss');
      return undefined;
    }
    let value: T;
    try {
      value = JSON.parse(text) as T;
    } catch {
      this.options.logger.warn({ key }, 'block cache: unreadable KV entry ignored');
      this.options.metrics.record('final', 'miss');
      return undefined;
    }
    this.remember(key, value, text.length);
    this.options.metrics.record('final', 'kv');
    return value;
  }

  async set(name: string, value: unknown): Promise<void> {
    const key = (await this.options.namespace()) + name;
    const text = JSON.stringify(value);
    this.remember(key, value, text.length);
    try {
      await this.options.kv.set(key, text, { ttlMs: this.options.kvTtlMs });
    } catch (err) {
      this.options.logger.warn({ err, key }, 'block cache: KV write failed');
    }
  }

  private remember(key: string, value: unknown, size: number): void {
    if (size > this.options.maxBytes) return;
    this.lru.set(key, { value }, { size: Math.max(1, size) });
  }
}
