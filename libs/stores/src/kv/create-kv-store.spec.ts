import { describe, expect, it } from '@jest/globals';
import { testRedisUrl, uniquePrefix } from '@itp/testing';
import { createKvStore } from './create-kv-store.js';
import { MemoryKvStore } from './memory-kv-store.js';
import { RedisKvStore } from './redis-kv-store.js';

describe('createKvStore', () => {
  it('uses Redis when a URL is given', async () => {
    const store = createKvStore({ redisUrl: testRedisUrl(), keyPrefix: uniquePrefix('create') });
    try {
      expect(store).toBeInstanceOf(RedisKvStore);
      await store.set('k', 'v');
      expect(await store.get('k')).toBe('v');
    } finally {
      await store.close();
    }
  });

  it('falls back to the in-process stand-in without a URL', async () => {
    const store = createKvStore({ keyPrefix: 'dev:' });
    try {
      expect(store).toBeInstanceOf(MemoryKvStore);
      await store.set('k', 'v');
      expect(await store.get('k')).toBe('v');
    } finally {
      await store.close();
    }
  });
});
