import { randomBytes, verify, createPublicKey } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { migrateToLatest, openSqlDatabase, type SqlDatabase } from '@itp/stores';
import { createTestDatabase, manualClock, type TestDatabase } from '@itp/testing';
import { parseKmsKey } from '../agent/kms-keyring.js';
import { didMigrations, type DidTables } from '../db/did-tables.js';
import { memoryLogger } from '../testing/did-harness.js';
import { didWebOf } from './did-web.js';
import { importIssuerKey } from './import-issuer-key.js';
import { IssuerKeySeal } from './issuer-key-seal.js';
import { IssuerKeyStore } from './issuer-key-store.js';
import { ISSUER_KEYS_REFRESH_MS, StoredSdJwtIssuerKeys } from './stored-sd-jwt-issuer-keys.js';
import { testIssuerPki } from './testing/test-issuer-pki.js';

// The service's view of the table: read at start, re-read at most every minute (an import reaches
// running replicas without a restart), never logging key material; ES256 signatures verify.
const PUBLIC_URL = 'https://issuer.example.test';
const HOST = 'issuer.example.test';

describe('StoredSdJwtIssuerKeys', () => {
  let testDb: TestDatabase;
  let database: SqlDatabase<DidTables>;
  let store: IssuerKeyStore;
  const importFresh = async () => {
    const pki = await testIssuerPki(HOST);
    const summary = await importIssuerKey(store, {
      keyText: pki.keyPem,
      chainPem: pki.chainPem,
      publicUrl: PUBLIC_URL,
    });
    return { pki, summary };
  };

  beforeAll(async () => {
    testDb = await createTestDatabase();
    database = openSqlDatabase<DidTables>(testDb.url, { poolSize: 2 });
    await migrateToLatest(database, didMigrations);
    const kms = parseKmsKey(randomBytes(32).toString('hex'));
    store = new IssuerKeyStore(database, new IssuerKeySeal({ current: kms, previous: [] }));
  });
  afterAll(async () => {
    await database.close();
    await testDb.drop();
  });

  it('is undefined with nothing imported and no dev issuer (issuance off)', async () => {
    const logs: string[] = [];
    expect(
      await StoredSdJwtIssuerKeys.open({
        store,
        didWeb: didWebOf(PUBLIC_URL),
        logger: memoryLogger(logs),
      }),
    ).toBeUndefined();
  });

  it('signs ES256 with the current key; an import shows after the refresh interval only', async () => {
    const first = await importFresh();
    const clock = manualClock(Date.now());
    const logs: string[] = [];
    const keys = await StoredSdJwtIssuerKeys.open({
      store,
      didWeb: didWebOf(PUBLIC_URL),
      logger: memoryLogger(logs),
      now: clock.now,
    });
    if (!keys) throw new Error('no keys');
    const current = await keys.current();
    expect(current.kid).toBe(`did:web:issuer.example.test#${first.summary.thumbprint}`);
    expect(current.publicJwk).toEqual({
      kty: 'EC',
      crv: 'P-256',
      x: first.pki.privateJwk.x,
      y: first.pki.privateJwk.y,
    });
    expect(current.x5c).toEqual([first.pki.leafPem.replace(/-----[A-Z ]+-----|\s/g, '')]);
    const input = 'eyJhbGciOiJFUzI1NiJ9.eyJhIjoxfQ';
    const signature = Buffer.from(await current.sign(input), 'base64url');
    expect(signature).toHaveLength(64);
    const publicKey = createPublicKey({ key: current.publicJwk as never, format: 'jwk' });
    expect(
      verify(
        'sha256',
        Buffer.from(input),
        { key: publicKey, dsaEncoding: 'ieee-p1363' },
        signature,
      ),
    ).toBe(true);
    expect(await keys.trustAnchorsPem()).toEqual([first.pki.caPem]);

    const second = await importFresh();
    clock.advance(ISSUER_KEYS_REFRESH_MS - 1);
    expect((await keys.current()).kid).toBe(current.kid);
    clock.advance(1);
    expect((await keys.current()).kid).toBe(
      `did:web:issuer.example.test#${second.summary.thumbprint}`,
    );
    // Both published (the first's certificate is still valid), current first; both roots trusted.
    expect((await keys.published()).map((k) => k.kid)).toEqual([
      `did:web:issuer.example.test#${second.summary.thumbprint}`,
      current.kid,
    ]);
    expect(await keys.trustAnchorsPem()).toHaveLength(2);
    // After the first's certificate expires, only the current key is published.
    clock.advance(31 * 24 * 3600_000);
    expect((await keys.published()).map((k) => k.kid)).toEqual([
      `did:web:issuer.example.test#${second.summary.thumbprint}`,
    ]);
    const text = logs.join('');
    expect(text).toContain('a newly imported key or certificate is in use');
    for (const pki of [first.pki, second.pki]) expect(text).not.toContain(pki.privateJwk.d);
    expect(JSON.stringify(current)).not.toContain(first.pki.privateJwk.d);
  });
});
