import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { migrateToLatest, openSqlDatabase, type SqlDatabase } from '@itp/stores';
import { createTestDatabase, type TestDatabase } from '@itp/testing';
import { SqlClientRepository } from './sql-client-repository.js';
import type { AuthDatabase } from './database.js';
import { authMigrations } from './migrations.js';
import { SqlUserRepository } from './sql-user-repository.js';

const dialects: Array<[string, () => Promise<{ url: string; drop?: () => Promise<void> }>]> = [
  ['PostgreSQL', async (): Promise<TestDatabase> => createTestDatabase()],
  ['SQLite', async () => ({ url: 'sqlite::memory:' })],
];

describe.each(dialects)('auth repositories on %s', (_name, open) => {
  let handle: { url: string; drop?: () => Promise<void> };
  let database: SqlDatabase<AuthDatabase>;

  beforeAll(async () => {
    handle = await open();
    database = openSqlDatabase<AuthDatabase>(handle.url);
    await migrateToLatest(database, authMigrations);
    await migrateToLatest(database, authMigrations);
  });

  afterAll(async () => {
    await database?.close();
    await handle?.drop?.();
  });

  it('users: insert once, find, list, enable/disable, new hash', async () => {
    const users = new SqlUserRepository(database);
    const alice = { id: 'alice', name: 'Alice', telNo: null, email: '', passwordHash: 'h1' };
    expect(await users.insertIfAbsent(alice, 1000)).toBe(true);
    expect(await users.insertIfAbsent({ ...alice, name: 'Other' }, 2000)).toBe(false);
    expect(await users.findById('alice')).toEqual({
      ...alice,
      enabled: true,
      createdAt: 1000,
      updatedAt: 1000,
      tokensValidAfter: 0,
      keysValidAfter: 0,
    });
    expect(await users.findById('ALICE')).toBeUndefined();
    // A disable moves the token epoch past it (JWTs stay ended after a later enable).
    expect(await users.setEnabled('alice', false, 3_000)).toBe(true);
    expect(await users.findById('alice')).toMatchObject({ tokensValidAfter: 4, keysValidAfter: 0 });
    expect(await users.setEnabled('alice', true, 3_500)).toBe(true);
    expect(await users.findById('alice')).toMatchObject({ enabled: true, tokensValidAfter: 4 });
    expect(await users.setEnabled('alice', false, 3_600)).toBe(true);
    // A reset keeping the keys moves the token epoch only; a full one both.
    expect(await users.setPasswordHash('alice', 'h2', { now: 4_000, endKeys: false })).toBe(true);
    expect(await users.findById('alice')).toMatchObject({
      enabled: false,
      passwordHash: 'h2',
      updatedAt: 4000,
      tokensValidAfter: 5,
      keysValidAfter: 0,
    });
    expect(await users.setPasswordHash('alice', 'h2', { now: 4_000, endKeys: true })).toBe(true);
    expect(await users.findById('alice')).toMatchObject({ tokensValidAfter: 5, keysValidAfter: 5 });
    // Logout everywhere: the token epoch and updatedAt.
    expect(await users.endTokens('alice', 7_200)).toMatchObject({
      tokensValidAfter: 8,
      keysValidAfter: 5,
      updatedAt: 7_200,
    });
    expect(await users.endTokens('nobody', 7_200)).toBeUndefined();
    // An epoch never goes back (a reset dated earlier, by a clock behind).
    expect(await users.setPasswordHash('alice', 'h2', { now: 4_000, endKeys: true })).toBe(true);
    expect(await users.findById('alice')).toMatchObject({ tokensValidAfter: 8, keysValidAfter: 5 });
    // A rehash of the same password (no time given) leaves updatedAt.
    expect(await users.setPasswordHash('alice', 'h3')).toBe(true);
    expect(await users.findById('alice')).toMatchObject({
      passwordHash: 'h3',
      updatedAt: 4000,
      tokensValidAfter: 8,
    });
    expect(await users.setEnabled('nobody', true, 1)).toBe(false);
    expect(await users.setPasswordHash('nobody', 'x', { now: 1, endKeys: true })).toBe(false);
    await users.insertIfAbsent({ ...alice, id: 'aaron', telNo: '+1 555 0100' }, 5000);
    expect((await users.list()).map((u) => [u.id, u.telNo])).toEqual([
      ['aaron', '+1 555 0100'],
      ['alice', null],
    ]);
  });

  it('clients: insert once with prefixes, find, list, disable, set redirect URIs', async () => {
    const clients = new SqlClientRepository(database);
    const shop = {
      id: 'shop',
      name: 'Shop',
      secretHash: 's1',
      requestIdPrefixes: ['https://shop.example/', 'https://m.shop.example/'],
    };
    expect(await clients.insertIfAbsent(shop, 10)).toBe(true);
    expect(await clients.insertIfAbsent(shop, 20)).toBe(false);
    expect(await clients.findById('shop')).toEqual({
      ...shop,
      redirectUris: [],
      postLogoutRedirectUris: [],
      backchannelLogoutUri: null,
      idTokenSigningAlg: 'ES256',
      enabled: true,
      createdAt: 10,
      updatedAt: 10,
    });
    const uris = {
      redirectUris: ['https://shop.example/cb', 'https://m.shop.example/cb'],
      postLogoutRedirectUris: ['https://shop.example/'],
      backchannelLogoutUri: 'https://shop.example/oidc/backchannel-logout',
    };
    expect(await clients.setRedirectUris('shop', uris, 25)).toBe(true);
    expect(await clients.findById('shop')).toMatchObject({ ...uris, updatedAt: 25 });
    expect(await clients.setRedirectUris('nobody', uris, 25)).toBe(false);
    expect(await clients.setEnabled('shop', false, 30)).toBe(true);
    expect((await clients.list()).map((c) => [c.id, c.enabled])).toEqual([['shop', false]]);
    expect(await clients.setEnabled('nobody', false, 30)).toBe(false);
  });
});
