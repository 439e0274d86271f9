import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ConfigError } from '@itp/service-kit';
import { migrateToLatest, openSqlDatabase, type SqlDatabase } from '@itp/stores';
import { createTestDatabase, type TestDatabase } from '@itp/testing';
import { parseKmsKey, type KmsKeys } from '../agent/kms-keyring.js';
import { didMigrations, type DidTables } from '../db/did-tables.js';
import { memoryLogger } from '../testing/did-harness.js';
import { importIssuerKey } from './import-issuer-key.js';
import { IssuerKeySeal } from './issuer-key-seal.js';
import { IssuerKeyStore } from './issuer-key-store.js';
import { testIssuerPki } from './testing/test-issuer-pki.js';
import { wireSdJwtIssuer } from './wire-sd-jwt-issuer.js';

// What the service does at start with the issuer key table: development without an import uses
// the dev PKI (an IP host gets a localhost leaf and a warning), a path in PUBLIC_URL is warned
// about, and a stored key the configured DID_KMS keys do not open stops the start.
describe('wireSdJwtIssuer', () => {
  let testDb: TestDatabase;
  let database: SqlDatabase<DidTables>;
  let dataDir: string;
  const kmsKeys = (): KmsKeys => ({
    current: parseKmsKey(randomBytes(32).toString('hex')),
    previous: [],
  });

  beforeAll(async () => {
    testDb = await createTestDatabase();
    database = openSqlDatabase<DidTables>(testDb.url, { poolSize: 2 });
    await migrateToLatest(database, didMigrations);
    dataDir = mkdtempSync(join(tmpdir(), 'wire-sd-jwt-issuer-'));
  });
  afterAll(async () => {
    await database.close();
    await testDb.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('development with an IP host: the dev leaf names localhost, with a warning', async () => {
    const logs: string[] = [];
    const wiring = await wireSdJwtIssuer(
      { APP_ENV: 'development', DATA_DIR: dataDir },
      memoryLogger(logs),
      { database, kmsKeys: kmsKeys(), publicUrl: 'http://127.0.0.1:8082' },
    );
    const current = await wiring.keys?.current();
    expect(current?.did).toBe('did:web:127.0.0.1%3A8082');
    expect(logs.join('')).toContain(
      "PUBLIC_URL's host 127.0.0.1 is an IP address; the dev issuer certificate names localhost",
    );
  });

  it('warns about a PUBLIC_URL with a path; off with one warning outside development', async () => {
    const logs: string[] = [];
    const wiring = await wireSdJwtIssuer(
      { APP_ENV: 'production', DATA_DIR: dataDir },
      memoryLogger(logs),
      { database, kmsKeys: kmsKeys(), publicUrl: 'https://example.test/itp' },
    );
    expect(wiring.keys).toBeUndefined();
    const text = logs.join('');
    expect(text).toContain('PUBLIC_URL has a path: the issuer');
    expect(text.match(/SD-JWT VC issuance is off/g)).toHaveLength(1);
  });

  it('a stored key that DID_KMS_SECRET_KEY does not open stops the start, naming its key id', async () => {
    const pki = await testIssuerPki('issuer.wire.test');
    const stored = { current: parseKmsKey(`k7:${randomBytes(32).toString('hex')}`), previous: [] };
    await importIssuerKey(new IssuerKeyStore(database, new IssuerKeySeal(stored)), {
      keyText: pki.keyPem,
      chainPem: pki.chainPem,
      publicUrl: 'https://issuer.wire.test',
    });
    const err = await wireSdJwtIssuer(
      { APP_ENV: 'production', DATA_DIR: dataDir },
      memoryLogger([]),
      { database, kmsKeys: kmsKeys(), publicUrl: 'https://issuer.wire.test' },
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toMatch(
      /a stored SD-JWT VC issuer key is sealed under key id "k7", which is not among these keys/,
    );
    // With the key it was stored with (as a previous key during a rotation) it opens.
    const opened = await wireSdJwtIssuer(
      { APP_ENV: 'production', DATA_DIR: dataDir },
      memoryLogger([]),
      {
        database,
        kmsKeys: { current: kmsKeys().current, previous: [stored.current] },
        publicUrl: 'https://issuer.wire.test',
      },
    );
    expect((await opened.keys?.current())?.did).toBe('did:web:issuer.wire.test');
  });
});
