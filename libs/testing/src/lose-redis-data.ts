import { Redis } from 'ioredis';
import { testRedisUrl } from './test-infra.js';

/**
 * What a Redis that restarts empty does to one service, on the shared test Redis: every key
 * under the service's REDIS_KEY_PREFIX is deleted (never the whole server: other test files use
 * it at the same time). Returns how many keys were deleted.
 */
export async function loseRedisData(prefix: string): Promise<number> {
  if (!prefix) throw new Error('loseRedisData needs the service’s key prefix');
  const redis = new Redis(testRedisUrl());
  try {
    let cursor = '0';
    let deleted = 0;
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) deleted += await redis.del(...keys);
    } while (cursor !== '0');
    return deleted;
  } finally {
    redis.disconnect();
  }
}
