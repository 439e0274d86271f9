import { describe, expect, it } from '@jest/globals';
import { waitFor } from '@itp/testing/wait-for';
import { MemoryKvStore } from './memory-kv-store.js';

describe('MemoryKvStore', () => {
  it('sweeps expired entries that are never read again', async () => {
    let now = Date.UTC(2030, 0, 1);
    const store = new MemoryKvStore({ sweepIntervalMs: 5, now: () => now });
    try {
      await store.set('a', '1', { ttlMs: 30 });
      await store.set('b', '2', { ttlMs: 30 });
      await store.set('kept', '3');
      expect(store.entryCount).toBe(3);
      now += 30; // the clock reaches their expiry; nothing reads them again
      await waitFor(() => store.entryCount === 1, { what: 'the sweep of the expired entries' });
      expect(await store.get('kept')).toBe('3');
    } finally {
      await store.close();
    }
  });

  it('expires entries by its clock', async () => {
    let now = Date.UTC(2030, 0, 1);
    const store = new MemoryKvStore({ now: () => now });
    try {
      await store.set('k', 'v', { ttlMs: 1_000 });
      now += 400;
      expect(await store.ttlMs('k')).toBe(600);
      now += 599;
      expect(await store.get('k')).toBe('v');
      now += 1;
      expect(await store.get('k')).toBeNull();
      expect(store.entryCount).toBe(0);
    } finally {
      await store.close();
    }
  });
});
