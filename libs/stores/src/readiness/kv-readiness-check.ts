import type { ReadinessCheck } from '@itp/service-kit';
import type { KvStore } from '../kv/kv-store.js';
import { MemoryKvStore } from '../kv/memory-kv-store.js';

/** `redis` (or `memory-kv` for the dev stand-in): ready while the store answers PING. */
export function kvReadinessCheck(store: KvStore): ReadinessCheck {
  return {
    name: store instanceof MemoryKvStore ? 'memory-kv' : 'redis',
    check: () => store.ping(),
  };
}
