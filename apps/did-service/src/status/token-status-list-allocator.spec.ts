import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { migrateToLatest, openSqlDatabase, type SqlDatabase } from '@itp/stores';
import { createTestDatabase, type TestDatabase } from '@itp/testing';
import { didMigrations, type DidTables } from '../db/did-tables.js';
import { StatusListStore } from '../db/status-lists.js';
import { StatusIndexAllocator } from './status-index-allocator.js';
import { TokenStatusListAllocator } from './token-status-list-allocator.js';
import { tokenListIdOf } from './token-status-list-urls.js';

const PUBLIC_URL = 'https://api.example.test';
const ISSUER_DID = 'did:ethr:0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const LENGTH = 131_072;
const URI = /^https:\/\/api\.example\.test\/v2\/did\/token-status-lists\/[A-Za-z0-9_-]{22}$/;

// The SD-JWT VCs' token status list entries on real PostgreSQL: the W3C lists' store and
// allocator, lists of their own, and the user on each entry (a reset revokes them).
describe('TokenStatusListAllocator (PostgreSQL)', () => {
  let testDb: TestDatabase;
  let database: SqlDatabase<DidTables>;
  let store: StatusListStore;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    database = openSqlDatabase<DidTables>(testDb.url);
    await migrateToLatest(database, didMigrations);
    store = new StatusListStore(database);
  });
  afterAll(async () => {
    await database.close();
    await testDb.drop();
  });

  const tokenLists = (publicUrl = PUBLIC_URL) =>
    new TokenStatusListAllocator(new StatusIndexAllocator(store, LENGTH), publicUrl);

  it('hands out entries { idx, uri } of a list whose issuer is <PUBLIC_URL>/v2/did/oid4vci', async () => {
    const entry = await tokenLists().allocate('user-a');
    expect(entry.uri).toMatch(URI);
    expect(Number.isInteger(entry.idx) && entry.idx >= 0 && entry.idx < LENGTH).toBe(true);
    const listId = tokenListIdOf(entry.uri) as string;
    expect(await store.list(listId)).toMatchObject({
      issuer: `${PUBLIC_URL}/v2/did/oid4vci`,
      length: LENGTH,
    });
    expect(await store.entry(listId, entry.idx)).toEqual({
      listId,
      index: entry.idx,
      userId: 'user-a',
      revoked: false,
    });
  });

  it('never hands out an index twice, also to concurrent callers on two pools (two replicas)', async () => {
    const other = openSqlDatabase<DidTables>(testDb.url);
    try {
      const replicas = [
        tokenLists(),
        new TokenStatusListAllocator(
          new StatusIndexAllocator(new StatusListStore(other), LENGTH),
          PUBLIC_URL,
        ),
      ];
      const entries = await Promise.all(
        Array.from({ length: 120 }, (_, i) => replicas[i % 2]!.allocate(`user-${i % 7}`)),
      );
      const keys = entries.map((e) => `${e.uri}#${e.idx}`);
      expect(new Set(keys).size).toBe(entries.length);
      for (const entry of entries) {
        const stored = await store.entry(tokenListIdOf(entry.uri) as string, entry.idx);
        expect(stored?.revoked).toBe(false);
      }
    } finally {
      await other.close();
    }
  });

  it('keeps the two kinds apart: W3C lists (issuer DID) and token lists never share a list', async () => {
    const w3c = await new StatusIndexAllocator(store, LENGTH).allocate(ISSUER_DID, 'user-a');
    const token = await tokenLists().allocate('user-a');
    const tokenListId = tokenListIdOf(token.uri) as string;
    expect(tokenListId).not.toBe(w3c.listId);
    expect((await store.list(w3c.listId))?.issuer).toBe(ISSUER_DID);
    expect((await store.currentList(`${PUBLIC_URL}/v2/did/oid4vci`))?.id).toBe(tokenListId);
    // Another public base is another issuer: lists of its own.
    const elsewhere = await tokenLists('https://other.example.test/').allocate('user-a');
    expect(elsewhere.uri).toMatch(/^https:\/\/other\.example\.test\/v2\/did\/token-status-lists\//);
    expect(tokenListIdOf(elsewhere.uri)).not.toBe(tokenListId);
  });

  it('a reset (revokeUserEntries) revokes the user’s SD-JWT VC entries, only that user’s', async () => {
    const mine = [await tokenLists().allocate('reset-me'), await tokenLists().allocate('reset-me')];
    const theirs = await tokenLists().allocate('keep-me');
    const before = new Date(Date.now() + 1000).toISOString();
    expect(await store.revokeUserEntries('reset-me', before)).toBe(2);
    for (const entry of mine) {
      const listId = tokenListIdOf(entry.uri) as string;
      expect((await store.entry(listId, entry.idx))?.revoked).toBe(true);
      expect(await store.revokedIndexes(listId)).toContain(entry.idx);
    }
    expect((await store.entry(tokenListIdOf(theirs.uri) as string, theirs.idx))?.revoked).toBe(
      false,
    );
  });
});
