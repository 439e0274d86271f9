import { describe, expect, it } from '@jest/globals';
import { manualClock } from '@itp/testing/wait-for';
import { cachedReads, copyRecord } from './cached-reads.js';

class FakeDidStore {
  reads = 0;
  readonly records = new Map<string, { did: string; keys: Array<{ kid: string }> }>();
  async getDID({ did }: { did: string }) {
    this.reads += 1;
    const found = this.records.get(did);
    if (!found) throw new Error('Identifier not found');
    return found;
  }
  async importDID(record: { did: string; keys: Array<{ kid: string }> }) {
    this.records.set(record.did, record);
    return true;
  }
  async listDIDs() {
    return [...this.records.values()];
  }
}

const options = { read: 'getDID', writes: ['importDID'], ttlMs: 60_000, max: 10 } as const;

describe('cachedReads', () => {
  it('answers a repeated read from memory, a copy each time', async () => {
    const store = new FakeDidStore();
    await store.importDID({ did: 'did:a', keys: [{ kid: 'k1' }] });
    const cached = cachedReads(store, { ...options, writes: [...options.writes] });
    const first = await cached.getDID({ did: 'did:a' });
    first.keys.push({ kid: 'tampered' });
    const second = await cached.getDID({ did: 'did:a' });
    expect(store.reads).toBe(1);
    expect(second).toEqual({ did: 'did:a', keys: [{ kid: 'k1' }] });
    expect(second).not.toBe(first);
  });

  it('never keeps a failure, and a write clears what was kept', async () => {
    const store = new FakeDidStore();
    const cached = cachedReads(store, { ...options, writes: [...options.writes] });
    await expect(cached.getDID({ did: 'did:b' })).rejects.toThrow('Identifier not found');
    await cached.importDID({ did: 'did:b', keys: [] });
    expect(await cached.getDID({ did: 'did:b' })).toEqual({ did: 'did:b', keys: [] });
    expect(store.reads).toBe(2);
    await cached.importDID({ did: 'did:b', keys: [{ kid: 'new' }] });
    expect((await cached.getDID({ did: 'did:b' })).keys).toEqual([{ kid: 'new' }]);
    expect(store.reads).toBe(3);
    // Other methods pass through untouched.
    expect(await cached.listDIDs()).toHaveLength(1);
  });

  it('forgets after the time to live', async () => {
    const store = new FakeDidStore();
    await store.importDID({ did: 'did:c', keys: [] });
    const clock = manualClock();
    const cached = cachedReads(store, {
      ...options,
      writes: [...options.writes],
      ttlMs: 20,
      now: clock.now,
    });
    await cached.getDID({ did: 'did:c' });
    clock.advance(20);
    await cached.getDID({ did: 'did:c' });
    expect(store.reads).toBe(1); // kept for the whole time to live
    clock.advance(1);
    await cached.getDID({ did: 'did:c' });
    expect(store.reads).toBe(2);
  });

  it('copies records deeply, as structuredClone would (class instances as plain objects)', () => {
    class Entity {
      kid = 'k1';
      meta = { algorithms: ['ES256K'], nested: [{ a: 1 }] };
      created = new Date(0);
      bytes = new Uint8Array([1, 2]);
      missing = null;
    }
    const entity = new Entity();
    const copy = copyRecord(entity);
    expect(copy).toEqual(structuredClone(entity));
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    copy.meta.nested[0]!.a = 2;
    copy.meta.algorithms.push('x');
    copy.created.setTime(5);
    copy.bytes[0] = 9;
    expect(entity.meta).toEqual({ algorithms: ['ES256K'], nested: [{ a: 1 }] });
    expect(entity.created.getTime()).toBe(0);
    expect(entity.bytes[0]).toBe(1);
    expect(copyRecord('text')).toBe('text');
    expect(copyRecord([1, [2]])).toEqual([1, [2]]);
  });
});
