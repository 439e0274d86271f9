import { describe, expect, it } from '@jest/globals';
import { runReadiness } from '@itp/service-kit';
import { freePort, testRedisUrl, uniquePrefix } from '@itp/testing';
import { MemoryKvStore } from '../kv/memory-kv-store.js';
import { RedisKvStore } from '../kv/redis-kv-store.js';
import { openSqlDatabase } from '../sql/open-sql-database.js';
import { kvReadinessCheck } from './kv-readiness-check.js';
import { sqlReadinessCheck } from './sql-readiness-check.js';

describe('readiness checks', () => {
  it('names the KV store by kind and passes while it answers', async () => {
    const memory = new MemoryKvStore();
    const redis = new RedisKvStore({ url: testRedisUrl(), keyPrefix: uniquePrefix('ready') });
    try {
      const report = await runReadiness([kvReadinessCheck(memory), kvReadinessCheck(redis)], 5000);
      expect(report).toEqual({
        status: 'ready',
        checks: { 'memory-kv': 'ok', redis: 'ok' },
        notReady: [],
      });
    } finally {
      await Promise.all([memory.close(), redis.close()]);
    }
  });

  it('reports Redis as not ready when it does not answer', async () => {
    const redis = new RedisKvStore({ url: `redis://127.0.0.1:${await freePort()}` });
    try {
      const report = await runReadiness([kvReadinessCheck(redis)], 5000);
      expect(report.status).toBe('not ready');
      expect(report.notReady).toEqual(['redis']);
    } finally {
      await redis.close();
    }
  });

  it('reports the database as ready while it answers and not ready once closed', async () => {
    const database = openSqlDatabase('sqlite::memory:');
    const check = sqlReadinessCheck(database);
    expect(check.name).toBe('database');
    expect((await runReadiness([check], 5000)).status).toBe('ready');
    await database.close();
    expect((await runReadiness([check], 5000)).notReady).toEqual(['database']);
  });
});
