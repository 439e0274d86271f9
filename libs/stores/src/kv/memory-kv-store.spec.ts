import { describe, expect, it } from '@jest/globals';
import { MemoryKvStore } from './memory-kv-store.js';

describe('MemoryKvStore', () => {
  it('sweeps expired entries that are never read again', async () => {
    const store = new MemoryKvStore({ sweepIntervalMs: 20 });
    try {
      await store.set('a', '1', { ttlMs: 30 });
      await store.set('b', '2', { ttlMs: 30 });
      await store.set('kept', '3');
      expect(store.entryCount).toBe(3);
      const deadline = Date.now() + 3000;
      while (store.entryCount > 1 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(store.entryCount).toBe(1);
      expect(await store.get('kept')).toBe('3');
    } finally {
      await store.close();
    }
  });
});
