import { Redis } from 'ioredis';
import { testRedisUrl } from '@itp/testing';

/** Restores what `snapshotRedisKeys` took: Redis goes back to that instant (for the prefix). */
export type RestoreRedisKeys = () => Promise<void>;

/**
 * Redis going back in time (a failover to a replica that lagged, a restore from a backup), for one
 * service on the shared test Redis: every key under `prefix` is dumped now (DUMP, with its
 * remaining time to live); the returned function deletes every key under `prefix` that exists
 * then and RESTOREs the dumped ones, so the service sees its Redis exactly as it was at the
 * snapshot. Never the whole server: other test files use it at the same time.
 */
export async function snapshotRedisKeys(prefix: string): Promise<RestoreRedisKeys> {
  if (!prefix) throw new Error('snapshotRedisKeys needs the service’s key prefix');
  const taken: Array<{ key: string; ttlMs: number; dump: Buffer }> = [];
  await withRedis(async (redis) => {
    for (const key of await keysUnder(redis, prefix)) {
      const [dump, ttlMs] = await Promise.all([redis.dumpBuffer(key), redis.pttl(key)]);
      if (dump !== null && ttlMs !== -2) taken.push({ key, ttlMs: Math.max(ttlMs, 0), dump });
    }
  });
  return () =>
    withRedis(async (redis) => {
      const now = await keysUnder(redis, prefix);
      if (now.length > 0) await redis.del(...now);
      for (const { key, ttlMs, dump } of taken) await redis.restore(key, ttlMs, dump, 'REPLACE');
    });
}

async function keysUnder(redis: Redis, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    cursor = next;
    keys.push(...found);
  } while (cursor !== '0');
  return keys;
}

async function withRedis<T>(run: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis(testRedisUrl());
  try {
    return await run(redis);
  } finally {
    redis.disconnect();
  }
}
