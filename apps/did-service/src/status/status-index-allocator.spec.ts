import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { migrateToLatest, openSqlDatabase, type SqlDatabase } from '@itp/stores';
import { createTestDatabase, type TestDatabase } from '@itp/testing';
import { didMigrations, type DidTables } from '../db/did-tables.js';
import { StatusListStore } from '../db/status-lists.js';
import { StatusIndexAllocator } from './status-index-allocator.js';

const ISSUER = 'did:ethr:0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const OTHER_ISSUER = 'did:ethr:0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';

// The allocator on both databases the service runs on: PostgreSQL (production, replicas) and
// SQLite (the dev stack). Concurrency is real: many allocations in flight on one pool, and on
// PostgreSQL two allocators over two pools, as two replicas.
describe.each(['postgres', 'sqlite'] as const)('StatusIndexAllocator on %s', (dialect) => {
  let testDb: TestDatabase | undefined;
  let dir: string | undefined;
  let url: string;
  let database: SqlDatabase<DidTables>;
  let store: StatusListStore;

  beforeAll(async () => {
    if (dialect === 'postgres') {
      testDb = await createTestDatabase();
      url = testDb.url;
    } else {
      dir = mkdtempSync(join(tmpdir(), 'did-status-'));
      url = `sqlite:${join(dir, 'did.sqlite')}`;
    }
    database = openSqlDatabase<DidTables>(url);
    await migrateToLatest(database, didMigrations);
    store = new StatusListStore(database);
  });
  afterAll(async () => {
    await database.close();
    await testDb?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const entries = (listId: string) =>
    database.db
      .selectFrom('did_status_entries')
      .select(['status_index', 'user_id'])
      .where('list_id', '=', listId)
      .execute();

  it('draws indexes at random over the whole list (131,072 entries), one list per issuer', async () => {
    const allocator = new StatusIndexAllocator(store, 131_072);
    const got = [];
    for (let i = 0; i < 40; i++) got.push(await allocator.allocate(ISSUER, `user-${i}`));
    const listIds = new Set(got.map((e) => e.listId));
    expect(listIds.size).toBe(1);
    const indexes = got.map((e) => e.index);
    expect(new Set(indexes).size).toBe(40);
    // Not handed out in order: sequential or clustered indexes would tell issuance order.
    expect(indexes).not.toEqual([...indexes].sort((a, b) => a - b));
    expect(Math.max(...indexes) - Math.min(...indexes)).toBeGreaterThan(131_072 / 4);
    for (const index of indexes) {
      expect(index).toBeGreaterThanOrEqual(0);
      expect(index).toBeLessThan(131_072);
    }
    const [listId] = [...listIds];
    expect((await store.list(listId as string))?.length).toBe(131_072);
    expect(await entries(listId as string)).toHaveLength(40);
    // The entry records the user.
    expect(await store.entry(listId as string, indexes[3] as number)).toEqual({
      listId,
      index: indexes[3],
      userId: 'user-3',
      revoked: false,
    });
    // Another issuer has lists of its own.
    const other = await allocator.allocate(OTHER_ISSUER, 'user-x');
    expect(other.listId).not.toBe(listId);
    expect((await store.list(other.listId))?.issuer).toBe(OTHER_ISSUER);
  });

  it('never hands out one index twice, also under concurrent calls, and starts a new list when one is full', async () => {
    const issuer = `did:ethr:0x${dialect === 'postgres' ? '1' : '2'}${'0'.repeat(39)}`;
    const length = 16;
    // Two allocators (two pools on PostgreSQL: as two replicas) sharing the lists.
    const second =
      dialect === 'postgres' ? openSqlDatabase<DidTables>(url, { poolSize: 4 }) : undefined;
    try {
      const allocators = [
        new StatusIndexAllocator(store, length),
        new StatusIndexAllocator(second ? new StatusListStore(second) : store, length),
      ];
      const calls = Array.from({ length: 40 }, (_, i) =>
        (allocators[i % 2] as StatusIndexAllocator).allocate(issuer, `u${i}`),
      );
      const got = await Promise.all(calls);
      const keys = got.map((e) => `${e.listId}#${e.index}`);
      expect(new Set(keys).size).toBe(40);
      const byList = new Map<string, number[]>();
      for (const e of got) byList.set(e.listId, [...(byList.get(e.listId) ?? []), e.index]);
      // 40 entries in lists of 16: at least three lists; concurrent creators may add one more.
      expect(byList.size).toBeGreaterThanOrEqual(3);
      for (const [listId, indexes] of byList) {
        expect(indexes.length).toBeLessThanOrEqual(length);
        expect(indexes.every((i) => i >= 0 && i < length)).toBe(true);
        expect((await entries(listId)).length).toBe(indexes.length);
      }
      // The full lists are marked full: every later allocation goes to a list with room.
      const lists = await database.db
        .selectFrom('did_status_lists')
        .select(['id', 'is_full'])
        .where('issuer', '=', issuer)
        .execute();
      for (const list of lists) {
        if ((byList.get(list.id)?.length ?? 0) < length) expect(Number(list.is_full)).toBe(0);
      }
      const more = await allocators[0]!.allocate(issuer, 'late');
      expect(keys).not.toContain(`${more.listId}#${more.index}`);
    } finally {
      await second?.close();
    }
  });

  it('fills a list to its last free index (the free ones listed once random draws miss)', async () => {
    const issuer = `did:ethr:0x${dialect === 'postgres' ? '3' : '4'}${'0'.repeat(39)}`;
    const allocator = new StatusIndexAllocator(store, 8);
    const got = [];
    for (let i = 0; i < 8; i++) got.push(await allocator.allocate(issuer, `u${i}`));
    expect(new Set(got.map((e) => e.listId)).size).toBe(1);
    expect(got.map((e) => e.index).sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    const ninth = await allocator.allocate(issuer, 'u8');
    expect(ninth.listId).not.toBe(got[0]?.listId);
  });

  it("reads an issuer's current list once a minute, not for every entry", async () => {
    const issuer = `did:ethr:0x${dialect === 'postgres' ? '5' : '6'}${'0'.repeat(39)}`;
    let reads = 0;
    const counting = Object.create(store) as StatusListStore;
    counting.currentList = (i: string) => {
      reads++;
      return store.currentList(i);
    };
    let now = 1_000_000;
    const allocator = new StatusIndexAllocator(counting, 131_072, () => now);
    const got = [];
    for (let i = 0; i < 5; i++) got.push(await allocator.allocate(issuer, `u${i}`));
    expect(reads).toBe(1);
    expect(new Set(got.map((e) => e.listId)).size).toBe(1);
    now += 59_999;
    await allocator.allocate(issuer, 'u5');
    expect(reads).toBe(1);
    now += 1;
    const later = await allocator.allocate(issuer, 'u6');
    expect(reads).toBe(2);
    expect(later.listId).toBe(got[0]?.listId);
  });

  it('leaves a list another replica filled once it finds it full, for a list with room', async () => {
    const issuer = `did:ethr:0x${dialect === 'postgres' ? '7' : '8'}${'0'.repeat(39)}`;
    const here = new StatusIndexAllocator(store, 4);
    const elsewhere = new StatusIndexAllocator(store, 4);
    const first = await here.allocate(issuer, 'u0');
    // The other replica fills the list this one keeps as current, and marks it full.
    const filled = [];
    for (let i = 1; i <= 4; i++) filled.push(await elsewhere.allocate(issuer, `v${i}`));
    expect(filled.slice(0, 3).every((e) => e.listId === first.listId)).toBe(true);
    const next = await here.allocate(issuer, 'u1');
    expect(next.listId).not.toBe(first.listId);
    const taken = [first, ...filled].map((e) => `${e.listId}#${e.index}`);
    expect(taken).not.toContain(`${next.listId}#${next.index}`);
    const again = await here.allocate(issuer, 'u2');
    expect(again.listId).toBe(next.listId);
  });
});
