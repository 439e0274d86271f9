import { inflateSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import type { StatusListRow, StatusListStore } from '../db/status-lists.js';
import {
  createTestSdJwtIssuerKey,
  TestSdJwtIssuerKeys,
  type TestSdJwtIssuerKey,
} from '../testing/test-sd-jwt-issuer-key.js';
import { TokenStatusListPublisher } from './token-status-list-publisher.js';

const LIST_ID = 'AAAAAAAAAAAAAAAAAAAAAA';
const ISSUER = 'https://api.example.test/v2/did/oid4vci';

/** The two store reads the publisher makes, over one list held in memory (pure logic). */
function storeOf(row: StatusListRow, revoked: number[]): StatusListStore {
  return {
    list: async (id: string) => (id === row.id ? row : undefined),
    revokedIndexes: async () => revoked,
  } as unknown as StatusListStore;
}

// The token's content and timing, with a fixed clock and the list in memory; the same publisher
// on real PostgreSQL and HTTP is token-status-list.spec.ts.
describe('TokenStatusListPublisher', () => {
  let key: TestSdJwtIssuerKey;
  const row: StatusListRow = {
    id: LIST_ID,
    issuer: ISSUER,
    length: 131_072,
    revision: 3,
    credential: null,
    credentialRevision: null,
  };

  beforeAll(async () => {
    key = await createTestSdJwtIssuerKey();
  });

  it('packs the bits in the IETF order (index 0 = least significant bit of byte 0), not the W3C one', async () => {
    const publisher = new TokenStatusListPublisher({
      store: storeOf(row, [1, 8, 131_071]),
      keys: new TestSdJwtIssuerKeys(key),
      maxAgeSeconds: 300,
    });
    const token = await publisher.current(LIST_ID);
    const { status_list } = decodeJwt(token!.jwt) as { status_list: { bits: number; lst: string } };
    expect(status_list.bits).toBe(1);
    const bytes = inflateSync(Buffer.from(status_list.lst, 'base64url'));
    expect(bytes.length).toBe(131_072 / 8);
    expect([bytes[0], bytes[1], bytes[bytes.length - 1]]).toEqual([0b0000_0010, 0b0000_0001, 0x80]);
    expect(bytes.subarray(2, -1).every((b) => b === 0)).toBe(true);
  });

  it('signs one token per window: iat the window start, exp two windows on, ttl = max-age', async () => {
    let now = 1_800_000_123_000; // ms
    const publisher = new TokenStatusListPublisher({
      store: storeOf(row, []),
      keys: new TestSdJwtIssuerKeys(key),
      maxAgeSeconds: 300,
      now: () => now,
    });
    const first = await publisher.current(LIST_ID);
    const claims = decodeJwt(first!.jwt);
    const windowStart = 1_800_000_123 - (1_800_000_123 % 300);
    expect(claims).toEqual({
      sub: 'https://api.example.test/v2/did/token-status-lists/AAAAAAAAAAAAAAAAAAAAAA',
      iat: windowStart,
      exp: windowStart + 600,
      ttl: 300,
      status_list: { bits: 1, lst: expect.any(String) },
    });
    expect(decodeProtectedHeader(first!.jwt)).toEqual({
      alg: 'ES256',
      typ: 'statuslist+jwt',
      x5c: key.x5c,
    });
    now = (windowStart + 299) * 1000; // same window: the same token
    expect(await publisher.current(LIST_ID)).toBe(first);
    expect(publisher.signatures).toBe(1);
    now = (windowStart + 300) * 1000; // next window: a new one
    const next = await publisher.current(LIST_ID);
    expect(decodeJwt(next!.jwt).iat).toBe(windowStart + 300);
    expect(next!.etag).not.toBe(first!.etag);
    expect(publisher.signatures).toBe(2);
  });

  it('max-age 0: no ttl (it must be positive), tokens reused for 60 s', async () => {
    const publisher = new TokenStatusListPublisher({
      store: storeOf(row, []),
      keys: new TestSdJwtIssuerKeys(key),
      maxAgeSeconds: 0,
      now: () => 1_800_000_000_000,
    });
    const claims = decodeJwt((await publisher.current(LIST_ID))!.jwt);
    expect(claims.ttl).toBeUndefined();
    expect(claims.exp! - claims.iat!).toBe(120);
  });

  it('serves nothing for a W3C list (issuer DID), an unknown list, or without a key', async () => {
    const w3c = { ...row, issuer: 'did:ethr:0x70997970C51812dc3A010C7d01b50e0d17dc79C8' };
    const keys = new TestSdJwtIssuerKeys(key);
    const make = (store: StatusListStore, withKeys = true) =>
      new TokenStatusListPublisher({ store, keys: withKeys ? keys : undefined, maxAgeSeconds: 60 });
    expect(await make(storeOf(w3c, [])).current(LIST_ID)).toBeUndefined();
    expect(await make(storeOf(row, [])).current('BBBBBBBBBBBBBBBBBBBBBB')).toBeUndefined();
    expect(await make(storeOf(row, []), false).current(LIST_ID)).toBeUndefined();
  });
});
