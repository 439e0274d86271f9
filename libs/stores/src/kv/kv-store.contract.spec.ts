import { testRedisUrl, uniquePrefix } from '@itp/testing';
import { kvStoreContract } from './kv-store.contract.js';
import { MemoryKvStore } from './memory-kv-store.js';
import { RedisKvStore } from './redis-kv-store.js';

kvStoreContract(
  'redis',
  async () => new RedisKvStore({ url: testRedisUrl(), keyPrefix: uniquePrefix('kv-contract') }),
);

kvStoreContract('memory', async () => new MemoryKvStore());
