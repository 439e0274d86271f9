import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { errors } from 'oidc-provider';
import { sha256Hex } from '@itp/crypto';
import { ServiceUnavailableError } from '@itp/errors';
import {
  MemoryKvStore,
  migrateToLatest,
  openSqlDatabase,
  RedisKvStore,
  type KvStore,
  type SqlDatabase,
} from '@itp/stores';
import { testRedisUrl, uniquePrefix } from '@itp/testing';
import type { AuthDatabase } from '../db/database.js';
import { authMigrations } from '../db/migrations.js';
import { kvOidcAdapter, type OidcSqlSide } from './kv-oidc-adapter.js';
import { OidcSqlStatements } from './oidc-sql-side.js';
import { OidcUnavailableError } from './oidc-unavailable.js';

const noClients = async () => undefined;

/** The adapter's SQL side on a SQLite database of its own (migrated and wired as the service does). */
async function sqlSide(): Promise<{ sql: OidcSqlSide; database: SqlDatabase<AuthDatabase> }> {
  const database = openSqlDatabase<AuthDatabase>('sqlite::memory:');
  await migrateToLatest(database, authMigrations);
  const statements = new OidcSqlStatements(database);
  return {
    database,
    sql: {
      marks: statements.marks,
      records: statements.records,
      useOnce: (key, expiresAt, now, copy) => statements.useOnce(key, expiresAt, now, copy),
      maxGrantLifetimeMs: 30 * 86_400_000,
    },
  };
}

/** The same suite on the dev stand-in and on a real Redis (Veramo's one suite, several setups). */
const setups: Array<[string, () => KvStore]> = [
  ['in-memory stand-in', () => new MemoryKvStore()],
  ['Redis', () => new RedisKvStore({ url: testRedisUrl(), keyPrefix: uniquePrefix('oidc') })],
];

describe.each(setups)('kvOidcAdapter on the %s', (_name, open) => {
  const kv = open();
  let database: SqlDatabase<AuthDatabase>;
  let adapter: ReturnType<typeof kvOidcAdapter>;
  beforeAll(async () => {
    const side = await sqlSide();
    database = side.database;
    adapter = kvOidcAdapter(kv, noClients, side.sql);
  });
  afterAll(async () => {
    await kv.close();
    await database.close();
  });

  /** What a Redis that went back in time shows: the values read before, written back. */
  const snapshot = async (...keys: string[]) => {
    const values = await Promise.all(keys.map((k) => kv.get(k)));
    return async () => {
      for (const [i, k] of keys.entries()) {
        const value = values[i];
        if (value === null || value === undefined) await kv.del(k);
        else await kv.set(k, value, { ttlMs: 60_000 });
      }
    };
  };
  const durableRows = async (model: string) =>
    database.db.selectFrom('auth_oidc_records').selectAll().where('model', '=', model).execute();

  it('stores a record with its lifetime and finds it again', async () => {
    const codes = adapter('AuthorizationCode');
    await codes.upsert('c1', { jti: 'c1', accountId: 'alice', grantId: 'g1' }, 60);
    expect(await codes.find('c1')).toEqual({ jti: 'c1', accountId: 'alice', grantId: 'g1' });
    const ttl = await kv.ttlMs(`oidc:AuthorizationCode:${sha256Hex('c1')}`);
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
    expect(await codes.find('nothing')).toBeUndefined();
  });

  it('keeps codes and tokens under their SHA-256 and without their value; finds them by it', async () => {
    for (const model of ['AuthorizationCode', 'AccessToken', 'RefreshToken']) {
      const records = adapter(model);
      const value = `${model}-secret-value-0123456789`;
      await records.upsert(value, { jti: value, accountId: 'alice', grantId: 'gh' }, 60);
      expect(await kv.get(`oidc:${model}:${value}`)).toBeNull();
      const raw = await kv.get(`oidc:${model}:${sha256Hex(value)}`);
      expect(raw).not.toBeNull();
      expect(raw).not.toContain(value);
      expect(await records.find(value)).toEqual({ jti: value, accountId: 'alice', grantId: 'gh' });
      await records.consume(value);
      expect(await records.find(value)).toMatchObject({ jti: value, consumed: expect.any(Number) });
      await records.destroy(value);
      expect(await records.find(value)).toBeUndefined();
    }
    // A session's id stays its key (its cookie is signed; the provider finds it by uid too).
    await adapter('Session').upsert('s-plain', { jti: 's-plain', uid: 'u-plain' }, 60);
    expect(await kv.get('oidc:Session:s-plain')).not.toBeNull();
  });

  it('consumes a record once: a second use, or a racing one, is invalid_grant', async () => {
    const codes = adapter('AuthorizationCode');
    await codes.upsert('c2', { accountId: 'alice' }, 60);
    const results = await Promise.allSettled([codes.consume('c2'), codes.consume('c2')]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(errors.InvalidGrant);
    expect((await codes.find('c2'))?.consumed).toEqual(expect.any(Number));
    await expect(codes.consume('c2')).rejects.toBeInstanceOf(errors.InvalidGrant);
  });

  it('a code consumed once stays consumed when Redis goes back: not found (not "consumed"), and consume refuses', async () => {
    const codes = adapter('AuthorizationCode');
    await codes.upsert('c-back', { accountId: 'alice', grantId: 'g-back' }, 60);
    const goBack = await snapshot(`oidc:AuthorizationCode:${sha256Hex('c-back')}`);
    await codes.consume('c-back');
    // Redis itself saw the use: the provider's reuse case (it revokes the grant).
    expect(await codes.find('c-back')).toMatchObject({ consumed: expect.any(Number) });
    await goBack();
    expect(
      JSON.parse((await kv.get(`oidc:AuthorizationCode:${sha256Hex('c-back')}`))!),
    ).not.toHaveProperty('consumed');
    expect(await codes.find('c-back')).toBeUndefined();
    await expect(codes.consume('c-back')).rejects.toBeInstanceOf(errors.InvalidGrant);
    // Marked in SQL only under the SHA-256 of a namespaced key.
    const marks = await database.db.selectFrom('auth_one_time_marks').select('id_hash').execute();
    expect(JSON.stringify(marks)).not.toContain('c-back');
  });

  it('keeps refresh tokens in SQL too (hashed, without the token): found when Redis lost them, ended by use and destroy', async () => {
    const tokens = adapter('RefreshToken');
    const value = 'rt-durable-value-0123456789';
    await tokens.upsert(value, { jti: value, accountId: 'alice', grantId: 'g-rt', exp: 4e9 }, 600);
    const [row] = (await durableRows('RefreshToken')).filter((r) => r.grant_id === 'g-rt');
    expect(row).toMatchObject({ id: sha256Hex(value), account_id: 'alice' });
    expect(JSON.stringify(row)).not.toContain(value);
    await kv.del(`oidc:RefreshToken:${sha256Hex(value)}`); // Redis lost it
    expect(await tokens.find(value)).toEqual({
      jti: value,
      accountId: 'alice',
      grantId: 'g-rt',
      exp: 4e9,
    });
    // Used (rotated): marked, its copy gone; found nowhere, consumed never again.
    await tokens.consume(value);
    expect((await durableRows('RefreshToken')).filter((r) => r.grant_id === 'g-rt')).toEqual([]);
    expect(await tokens.find(value)).toBeUndefined();
    await expect(tokens.consume(value)).rejects.toBeInstanceOf(errors.InvalidGrant);

    // destroy (a revocation): Redis bringing the token back does not revive it.
    const other = 'rt-destroyed-value-0123456789';
    await tokens.upsert(other, { accountId: 'alice', grantId: 'g-rt2' }, 600);
    const goBack = await snapshot(`oidc:RefreshToken:${sha256Hex(other)}`);
    await tokens.destroy(other);
    await goBack();
    expect(await tokens.find(other)).toBeUndefined();
  });

  it('ends a grant in SQL: a revoked grant and its refresh tokens stay ended when Redis brings them back', async () => {
    const grants = adapter('Grant');
    const tokens = adapter('RefreshToken');
    const grant = {
      accountId: 'alice',
      clientId: 'shop',
      openid: { scope: 'openid offline_access' },
    };
    await grants.upsert('g-off', grant, 600);
    await grants.upsert('g-on', { ...grant, openid: { scope: 'openid' } }, 600);
    // Only a grant with offline_access (which may hold refresh tokens) is kept in SQL.
    expect((await durableRows('Grant')).map((r) => r.id).sort()).toEqual(['g-off']);
    await tokens.upsert('rt-of-g-off', { accountId: 'alice', grantId: 'g-off' }, 600);
    await kv.del('oidc:Grant:g-off');
    expect(await grants.find('g-off')).toEqual(grant); // from SQL
    await grants.upsert('g-off', grant, 600);
    const goBack = await snapshot(
      'oidc:Grant:g-off',
      `oidc:RefreshToken:${sha256Hex('rt-of-g-off')}`,
      'oidc:grant:g-off',
    );
    await tokens.revokeByGrantId('g-off');
    await grants.destroy('g-off');
    await goBack();
    expect(await grants.find('g-off')).toBeUndefined();
    expect(await tokens.find('rt-of-g-off')).toBeUndefined();
    expect(await durableRows('Grant')).toEqual([]);
    expect(await grants.find('g-on')).toMatchObject({ clientId: 'shop' });
  });

  it('revoking a grant ends it for every model: the grant is not found, other grants are untouched', async () => {
    const grants = adapter('Grant');
    const codes = adapter('AuthorizationCode');
    const tokens = adapter('AccessToken');
    await grants.upsert('g3', { accountId: 'alice', clientId: 'shop' }, 600);
    await grants.upsert('g4', { accountId: 'alice', clientId: 'shop' }, 600);
    await codes.upsert('c3', { grantId: 'g3' }, 60);
    await tokens.upsert('t4', { jti: 't4', grantId: 'g4' }, 3600);
    const goBack = await snapshot('oidc:Grant:g3');
    await tokens.revokeByGrantId('g3');
    await grants.destroy('g3');
    // Its codes and tokens are refused through it (the provider finds a record's grant on every
    // use: http/oidc.spec.ts), also when Redis brings the grant back.
    expect(await grants.find('g3')).toBeUndefined();
    await goBack();
    expect(await grants.find('g3')).toBeUndefined();
    expect(await grants.find('g4')).toMatchObject({ clientId: 'shop' });
    expect(await tokens.find('t4')).toEqual({ jti: 't4', grantId: 'g4' });
  });

  it('a grant rotated many times writes no more per rotation than at first (no list that grows)', async () => {
    const written: Array<Map<string, number>> = [];
    const counting = new Proxy(kv, {
      get(target, name, receiver) {
        const value = Reflect.get(target, name, receiver) as unknown;
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          // Every value a rotation writes (set, compare-and-swap), by key family.
          if ((name === 'set' || name === 'compareAndSwap') && written.length > 0) {
            const [key, ...rest] = args as [string, ...unknown[]];
            const next = name === 'set' ? rest[0] : rest[1];
            const family = key.split(':').slice(0, 2).join(':');
            const bytes = typeof next === 'string' ? next.length : 0;
            const round = written.at(-1)!;
            round.set(family, (round.get(family) ?? 0) + bytes);
          }
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    const { sql, database: own } = await sqlSide();
    const rotating = kvOidcAdapter(counting, noClients, sql);
    const grants = rotating('Grant');
    const refresh = rotating('RefreshToken');
    const access = rotating('AccessToken');
    const grant = {
      accountId: 'bob',
      clientId: 'shop',
      openid: { scope: 'openid offline_access' },
    };
    await grants.upsert('g-rot', grant, 600);
    const exp = Math.floor(Date.now() / 1000) + 600;
    await refresh.upsert('rt-0', { accountId: 'bob', grantId: 'g-rot', exp }, 600);
    const rotations = 200;
    for (let i = 0; i < rotations; i += 1) {
      written.push(new Map());
      // What oidc-provider does per refresh: find the token and its grant, consume the token,
      // save its successor and a new access token (and the grant, on some paths).
      expect(await refresh.find(`rt-${i}`)).toMatchObject({ grantId: 'g-rot' });
      expect(await grants.find('g-rot')).toMatchObject({ clientId: 'shop' });
      await refresh.consume(`rt-${i}`);
      await refresh.upsert(`rt-${i + 1}`, { accountId: 'bob', grantId: 'g-rot', exp }, 600);
      await access.upsert(`at-${i}`, { accountId: 'bob', grantId: 'g-rot' }, 3600);
      await grants.upsert('g-rot', grant, 600);
    }
    const first = written[0]!;
    const last = written.at(-1)!;
    expect([...last.keys()].sort()).toEqual([...first.keys()].sort());
    for (const [family, bytes] of last) {
      // The same records each time (token names differ by a digit or two), nothing that grows.
      expect(bytes).toBeLessThanOrEqual((first.get(family) ?? 0) + 16);
    }
    expect(await kv.get('oidc:grant:g-rot')).toBeNull();
    expect(JSON.parse((await kv.get('oidc:accountGrants:bob'))!)).toEqual(['g-rot']);
    // Revoked, the grant ends every token it issued (found through it).
    await access.revokeByGrantId('g-rot');
    expect(await grants.find('g-rot')).toBeUndefined();
    await own.close();
  });

  it('finds a session by its uid until it is destroyed', async () => {
    const sessions = adapter('Session');
    await sessions.upsert('s1', { uid: 'u1', accountId: 'alice' }, 600);
    expect(await sessions.findByUid('u1')).toEqual({ uid: 'u1', accountId: 'alice' });
    await sessions.destroy('s1');
    expect(await sessions.find('s1')).toBeUndefined();
    expect(await sessions.findByUid('u1')).toBeUndefined();
  });
});

describe('kvOidcAdapter', () => {
  it('reads clients through the lookup, never from the store', async () => {
    const kv = new MemoryKvStore();
    const { sql, database } = await sqlSide();
    const adapter = kvOidcAdapter(
      kv,
      async (id) =>
        id === 'shop'
          ? { client_id: 'shop', redirect_uris: ['https://shop.example/cb'] }
          : undefined,
      sql,
    );
    await kv.set('oidc:Client:ghost', JSON.stringify({ client_id: 'ghost' }));
    expect(await adapter('Client').find('shop')).toMatchObject({ client_id: 'shop' });
    expect(await adapter('Client').find('ghost')).toBeUndefined();
    await kv.close();
    await database.close();
  });

  it('answers a store outage as temporarily_unavailable (503), not a server error', async () => {
    const down = new Proxy({} as KvStore, {
      get: () => async () => {
        throw new ServiceUnavailableError('Redis is unavailable', { details: { store: 'redis' } });
      },
    });
    const { sql, database } = await sqlSide();
    const sessions = kvOidcAdapter(down, noClients, sql)('Session');
    const failure = await sessions.find('s').catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(OidcUnavailableError);
    expect(failure).toMatchObject({ status: 503, error: 'temporarily_unavailable', expose: true });
    // The database down too: a code is not consumed without its mark (503, not a success).
    const codes = kvOidcAdapter(new MemoryKvStore(), noClients, sql)('AuthorizationCode');
    await codes.upsert('c-db', { accountId: 'alice' }, 60);
    await database.close();
    const refused = await codes.consume('c-db').catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(OidcUnavailableError);
  });
});
