import type { Logger } from '@itp/service-kit';
import type { KvStore } from './kv-store.js';
import { MemoryKvStore } from './memory-kv-store.js';
import { RedisKvStore } from './redis-kv-store.js';
import type { RedisTopology } from './redis-topology.js';

export interface CreateKvStoreOptions {
  /** When set: Redis. When absent: the in-process stand-in (development only, see resolveStoreUrls). */
  redisUrl?: string;
  /** Standalone (default), Sentinel or Cluster (resolveStoreUrls gives it from the config). */
  redisTopology?: RedisTopology;
  /** Namespace for every key in Redis, e.g. `auth:`. Ignored by the memory stand-in. */
  keyPrefix: string;
  logger?: Logger;
}

export function createKvStore(options: CreateKvStoreOptions): KvStore {
  if (options.redisUrl) {
    return new RedisKvStore({
      url: options.redisUrl,
      ...(options.redisTopology ? { topology: options.redisTopology } : {}),
      keyPrefix: options.keyPrefix,
      logger: options.logger,
    });
  }
  options.logger?.warn('no REDIS_URL: using the in-process key-value stand-in (development only)');
  return new MemoryKvStore();
}
