import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { migrateToLatest, openSqlDatabase, type SqlDatabase } from '@itp/stores';
import { createTestDatabase, type TestDatabase } from '@itp/testing';
import { didMigrations, type DidTables } from './did-tables.js';
import { IssuedCredentialStore } from './issued-credentials.js';
import { StatusListStore } from './status-lists.js';

const ISSUER = 'did:ethr:0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const HOLDER = 'did:ethr:0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';

// The record of issued credentials and a user's revocation, on both databases the service runs
// on: PostgreSQL (production) and SQLite (the dev stack).
describe.each(['postgres', 'sqlite'] as const)('issued credentials on %s', (dialect) => {
  let testDb: TestDatabase | undefined;
  let dir: string | undefined;
  let database: SqlDatabase<DidTables>;
  let lists: StatusListStore;
  let issued: IssuedCredentialStore;
  let next = 0;

  beforeAll(async () => {
    let url: string;
    if (dialect === 'postgres') {
      testDb = await createTestDatabase();
      url = testDb.url;
    } else {
      dir = mkdtempSync(join(tmpdir(), 'did-issued-'));
      url = `sqlite:${join(dir, 'did.sqlite')}`;
    }
    database = openSqlDatabase<DidTables>(url);
    await migrateToLatest(database, didMigrations);
    lists = new StatusListStore(database);
    issued = new IssuedCredentialStore(database);
    await lists.createList('list-a', ISSUER, 1000);
    await lists.createList('list-b', ISSUER, 1000);
  });
  afterAll(async () => {
    await database.close();
    await testDb?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** A credential of `userId` whose status entry was handed out at `issuedAt` (ISO). */
  async function credential(userId: string, issuedAt: string, listId = 'list-a') {
    const index = next++;
    expect(await lists.claim(listId, index, userId)).toBe(true);
    // The entry's time as the allocator would have written it then.
    await database.db
      .updateTable('did_status_entries')
      .set({ issued_at: issuedAt })
      .where('list_id', '=', listId)
      .where('status_index', '=', index)
      .execute();
    const id = `urn:uuid:00000000-0000-4000-8000-${String(index).padStart(12, '0')}`;
    await issued.record({ id, userId, holder: HOLDER, issuedAt, via: 'create-vc', listId, index });
    return { id, listId, index };
  }

  it('lists a user’s credentials newest first, at most `limit`, with their status bit', async () => {
    const first = await credential('ann', '2026-01-01T00:00:00.000Z');
    const second = await credential('ann', '2026-01-02T00:00:00.000Z', 'list-b');
    await credential('bob', '2026-01-03T00:00:00.000Z');
    await lists.revoke(first.listId, first.index);
    expect(await issued.listForUser('ann')).toEqual([
      {
        id: second.id,
        holder: HOLDER,
        issuedAt: '2026-01-02T00:00:00.000Z',
        status: 'valid',
        via: 'create-vc',
      },
      {
        id: first.id,
        holder: HOLDER,
        issuedAt: '2026-01-01T00:00:00.000Z',
        status: 'revoked',
        via: 'create-vc',
      },
    ]);
    expect((await issued.listForUser('ann', 1)).map((c) => c.id)).toEqual([second.id]);
    expect(await issued.listForUser('nobody')).toEqual([]);
  });

  it('revokes the user’s entries issued before the instant, bumps each changed list once, and only once', async () => {
    const revision = async (id: string) => (await lists.list(id))?.revision ?? -1;
    const older = [
      await credential('cid', '2026-02-01T00:00:00.000Z', 'list-a'),
      await credential('cid', '2026-02-01T00:00:00.999Z', 'list-b'),
      await credential('cid', '2026-02-01T00:00:00.500Z', 'list-b'),
    ];
    const newer = await credential('cid', '2026-02-01T00:00:01.000Z', 'list-a');
    const other = await credential('dan', '2026-01-01T00:00:00.000Z', 'list-a');
    const before = { a: await revision('list-a'), b: await revision('list-b') };

    expect(await lists.revokeUserEntries('cid', '2026-02-01T00:00:01.000Z')).toBe(3);
    for (const c of older) expect((await lists.entry(c.listId, c.index))?.revoked).toBe(true);
    expect((await lists.entry(newer.listId, newer.index))?.revoked).toBe(false);
    expect((await lists.entry(other.listId, other.index))?.revoked).toBe(false);
    // A new revision per changed list: the published lists are signed again.
    expect({ a: await revision('list-a'), b: await revision('list-b') }).toEqual({
      a: before.a + 1,
      b: before.b + 1,
    });

    expect(await lists.revokeUserEntries('cid', '2026-02-01T00:00:01.000Z')).toBe(0);
    expect({ a: await revision('list-a'), b: await revision('list-b') }).toEqual({
      a: before.a + 1,
      b: before.b + 1,
    });
  });
});
