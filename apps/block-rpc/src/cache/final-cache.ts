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
  /** The value's JSON text, as stored in the KV store and as sent to clients. */
  text: string;
  /** Texts of derived views (e.g. a block with transaction hashes only), made once. */
  views?: Map<string, string>;
}

/** A view of a cached value, serialised once per entry (see FinalCache.getText). */
export interface CacheView {
  name: string;
  derive: (value: never) => unknown;
}

/**
 * The cache for data that can no longer change (blocks, transactions and receipts of final
 * blocks): an in-process LRU in front of the shared KV store (Redis in production). Values are JSON.
 * Each entry keeps the JSON text it was stored as, so a final block is answered from bytes
 * serialised once (getText) instead of an object serialised per request.
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
    return (await this.lookup(name))?.value as T | undefined;
  }

  /**
   * The JSON text of a cached value, or of `view` of it (derived and serialised on the first
   * request for it, then kept beside the entry): the bytes to send, nothing built per request.
   */
  async getText(name: string, view?: CacheView): Promise<string | undefined> {
    const entry = await this.lookup(name);
    return entry && textOf(entry, view);
  }

  /**
   * In process memory only (no KV read, no metric): the value kept under `name`, or undefined.
   * For a caller that answers only from memory and leaves everything else to get / getText, which
   * then count their lookups once (see recordMemoryHits).
   */
  async peek<T>(name: string): Promise<T | undefined> {
    return this.lru.get((await this.options.namespace()) + name)?.value as T | undefined;
  }

  /** getText in process memory only (no KV read, no metric; see peek). */
  async peekText(name: string, view?: CacheView): Promise<string | undefined> {
    const entry = this.lru.get((await this.options.namespace()) + name);
    return entry && textOf(entry, view);
  }

  /** Counts `count` lookups answered from memory, as get / getText count them (after peeks). */
  recordMemoryHits(count: number): void {
    for (let i = 0; i < count; i += 1) this.options.metrics.record('final', 'memory');
  }

  private async lookup(name: string): Promise<Entry | undefined> {
    const key = (await this.options.namespace()) + name;
    const hit = this.lru.get(key);
    if (hit) {
      this.options.metrics.record('final', 'memory');
      return hit;
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
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.options.logger.warn({ key }, 'block cache: unreadable KV entry ignored');
      this.options.metrics.record('final', 'miss');
      return undefined;
    }
    const entry: Entry = { value, text };
    this.remember(key, entry);
    this.options.metrics.record('final', 'kv');
    return entry;
  }

  async set(name: string, value: unknown): Promise<void> {
    const key = (await this.options.namespace()) + name;
    const text = JSON.stringify(value);
    this.remember(key, { value, text });
    try {
      await this.options.kv.set(key, text, { ttlMs: this.options.kvTtlMs });
    } catch (err) {
      this.options.logger.warn({ err, key }, 'block cache: KV write failed');
    }
  }

  /** Size counted as the text's length (maxBytes bounds the JSON kept). */
  private remember(key: string, entry: Entry): void {
    const size = Math.max(1, entry.text.length);
    if (size > this.options.maxBytes) return;
    this.lru.set(key, entry, { size });
  }
}

/** The entry's text, or the text of `view` of it (derived and serialised once, then kept). */
function textOf(entry: Entry, view: CacheView | undefined): string {
  if (!view) return entry.text;
  entry.views ??= new Map();
  let text = entry.views.get(view.name);
  if (text === undefined) {
    text = JSON.stringify(view.derive(entry.value as never));
    entry.views.set(view.name, text);
  }
  return text;
}
