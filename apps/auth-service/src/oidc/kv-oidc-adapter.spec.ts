import { afterAll, describe, expect, it } from '@jest/globals';
import { errors } from 'oidc-provider';
import { sha256Hex } from '@itp/crypto';
import { ServiceUnavailableError } from '@itp/errors';
import { MemoryKvStore, RedisKvStore, type KvStore } from '@itp/stores';
import { testRedisUrl, uniquePrefix } from '@itp/testing';
import { kvOidcAdapter } from './kv-oidc-adapter.js';
import { OidcUnavailableError } from './oidc-unavailable.js';

const noClients = async () => undefined;

/** The same suite on the dev stand-in and on a real Redis (Veramo's one suite, several setups). */
const setups: Array<[string, () => KvStore]> = [
  ['in-memory stand-in', () => new MemoryKvStore()],
  ['Redis', () => new RedisKvStore({ url: testRedisUrl(), keyPrefix: uniquePrefix('oidc') })],
];

describe.each(setups)('kvOidcAdapter on the %s', (_name, open) => {
  const kv = open();
  const adapter = kvOidcAdapter(kv, noClients);
  afterAll(() => kv.close());

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

  it('revokes every record of a grant, across models', async () => {
    const codes = adapter('AuthorizationCode');
    const tokens = adapter('AccessToken');
    await codes.upsert('c3', { grantId: 'g3' }, 60);
    await tokens.upsert('t3', { grantId: 'g3' }, 3600);
    await tokens.upsert('t4', { jti: 't4', grantId: 'other' }, 3600);
    await tokens.revokeByGrantId('g3');
    expect(await codes.find('c3')).toBeUndefined();
    expect(await tokens.find('t3')).toBeUndefined();
    expect(await tokens.find('t4')).toEqual({ jti: 't4', grantId: 'other' });
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
    const adapter = kvOidcAdapter(kv, async (id) =>
      id === 'shop' ? { client_id: 'shop', redirect_uris: ['https://shop.example/cb'] } : undefined,
    );
    await kv.set('oidc:Client:ghost', JSON.stringify({ client_id: 'ghost' }));
    expect(await adapter('Client').find('shop')).toMatchObject({ client_id: 'shop' });
    expect(await adapter('Client').find('ghost')).toBeUndefined();
    await kv.close();
  });

  it('answers a store outage as temporarily_unavailable (503), not a server error', async () => {
    const down = new Proxy({} as KvStore, {
      get: () => async () => {
        throw new ServiceUnavailableError('Redis is unavailable', { details: { store: 'redis' } });
      },
    });
    const sessions = kvOidcAdapter(down, noClients)('Session');
    const failure = await sessions.find('s').catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(OidcUnavailableError);
    expect(failure).toMatchObject({ status: 503, error: 'temporarily_unavailable', expose: true });
  });
});
