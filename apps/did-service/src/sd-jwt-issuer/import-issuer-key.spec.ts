import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { migrateToLatest, openSqlDatabase, type SqlDatabase } from '@itp/stores';
import { createTestDatabase, type TestDatabase } from '@itp/testing';
import { createCa } from '@itp/x509';
import { KmsKeyUnavailableError, parseKmsKey } from '../agent/kms-keyring.js';
import { didMigrations, type DidTables } from '../db/did-tables.js';
import { importIssuerKey, renewIssuerCertificate } from './import-issuer-key.js';
import { IssuerKeySeal } from './issuer-key-seal.js';
import { IssuerKeyStore } from './issuer-key-store.js';
import { SdJwtIssuerImportError } from './sd-jwt-issuer-errors.js';
import { issueLeafFor } from './testing/issue-leaf-for.js';
import { testIssuerPki, type TestIssuerPki } from './testing/test-issuer-pki.js';

// `sd-jwt-issuer import` / `renew-certificate` against the real PostgreSQL: every check refuses
// with a message saying what is wrong and stores nothing; what is stored is sealed.
const PUBLIC_URL = 'https://issuer.example.test:8443';
const HOST = 'issuer.example.test';
const KMS = parseKmsKey(randomBytes(32).toString('hex'));

describe('SD-JWT VC issuer key import', () => {
  let testDb: TestDatabase;
  let database: SqlDatabase<DidTables>;
  let store: IssuerKeyStore;
  let good: TestIssuerPki;

  const rows = () => database.db.selectFrom('did_sd_jwt_issuer_keys').selectAll().execute();
  const refused = async (input: Partial<Parameters<typeof importIssuerKey>[1]>) => {
    const err = await importIssuerKey(store, {
      keyText: good.keyPem,
      chainPem: good.chainPem,
      publicUrl: PUBLIC_URL,
      ...input,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SdJwtIssuerImportError);
    return (err as Error).message;
  };

  beforeAll(async () => {
    testDb = await createTestDatabase();
    database = openSqlDatabase<DidTables>(testDb.url, { poolSize: 2 });
    await migrateToLatest(database, didMigrations);
    store = new IssuerKeyStore(database, new IssuerKeySeal({ current: KMS, previous: [] }));
    good = await testIssuerPki(HOST);
  });
  afterAll(async () => {
    await database.close();
    await testDb.drop();
  });

  it('refuses a key that is not on P-256 (P-384, RSA, Ed25519), PEM or JWK', async () => {
    const p384 = generateKeyPairSync('ec', { namedCurve: 'secp384r1' }).privateKey;
    expect(
      await refused({ keyText: p384.export({ type: 'pkcs8', format: 'pem' }).toString() }),
    ).toBe(
      'the key is an EC key on secp384r1, not an EC key on P-256 (prime256v1): SD-JWT VCs are signed ES256 (HAIP)',
    );
    expect(await refused({ keyText: JSON.stringify(p384.export({ format: 'jwk' })) })).toMatch(
      /secp384r1, not an EC key on P-256/,
    );
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    expect(
      await refused({ keyText: rsa.export({ type: 'pkcs8', format: 'pem' }).toString() }),
    ).toMatch(/the key is a rsa key, not an EC key on P-256/);
    const ed = generateKeyPairSync('ed25519').privateKey;
    expect(
      await refused({ keyText: ed.export({ type: 'pkcs8', format: 'pem' }).toString() }),
    ).toMatch(/ed25519 key, not an EC key on P-256/);
    const { d: _d, ...publicOnly } = good.privateJwk;
    expect(await refused({ keyText: JSON.stringify(publicOnly) })).toMatch(/no private part \(d\)/);
    expect(await refused({ keyText: good.leafPem })).toMatch(/no "PRIVATE KEY"/);
    expect(await rows()).toEqual([]);
  });

  it('refuses a key the leaf does not certify', async () => {
    const other = await testIssuerPki(HOST);
    expect(await refused({ keyText: other.keyPem })).toBe(
      `the leaf certificate (CN=${HOST}, O=ITP test issuer) certifies another public key than the given key: give the key of that certificate, or the certificate of that key`,
    );
    expect(await rows()).toEqual([]);
  });

  it('refuses a chain that does not verify to its root, or has no root', async () => {
    const otherCa = await createCa({ subject: 'CN=ITP test issuer CA, O=ITP' });
    // Same subject, other key: the leaf is not signed by this root.
    expect(await refused({ chainPem: `${good.leafPem}\n${otherCa.pem}` })).toMatch(
      /^the certificate chain does not verify: .*not signed by/,
    );
    expect(await refused({ chainPem: good.leafPem, rootPem: otherCa.pem })).toMatch(
      /^the certificate chain does not verify/,
    );
    expect(await refused({ chainPem: good.leafPem })).toMatch(
      /holds one certificate: append its root CA to the bundle, or give the root with --root/,
    );
    expect(await refused({ chainPem: good.caPem })).toMatch(/holds one certificate/);
    expect(await refused({ chainPem: `${good.caPem}\n${good.caPem}` })).toMatch(/only its root CA/);
    expect(await refused({ chainPem: 'not a pem' })).toMatch(/^--chain: PEM bundle holds no/);
    expect(await refused({ chainPem: `${good.leafPem}\n${good.keyPem}` })).toMatch(
      /^--chain: PEM bundle entry 2 is a PRIVATE KEY block/,
    );
    const expired = await refused({ now: new Date(Date.now() + 40 * 24 * 3600_000) });
    expect(expired).toMatch(
      /^the certificate chain does not verify: .*\(validity\): x5c\[0\] .* expired at/,
    );
    expect(await rows()).toEqual([]);
  });

  it("refuses a leaf whose SAN does not name PUBLIC_URL's host, and an IP host", async () => {
    const elsewhere = await testIssuerPki('other.example.test');
    expect(await refused({ keyText: elsewhere.keyPem, chainPem: elsewhere.chainPem })).toBe(
      "the leaf certificate's SAN dNSName entries (other.example.test) do not include issuer.example.test, the host of PUBLIC_URL: an SD-JWT VC's https iss must match its x5c leaf's SAN (draft-ietf-oauth-sd-jwt-vc)",
    );
    expect(await refused({ publicUrl: 'https://10.0.0.1' })).toMatch(/is an IP address/);
    expect(await rows()).toEqual([]);
  });

  it('stores the key sealed (never the key itself) with the chain without its root', async () => {
    const summary = await importIssuerKey(store, {
      keyText: good.keyPem,
      chainPem: good.chainPem,
      publicUrl: PUBLIC_URL,
    });
    expect(summary).toMatchObject({
      did: 'did:web:issuer.example.test%3A8443',
      kid: `did:web:issuer.example.test%3A8443#${summary.thumbprint}`,
      subject: `CN=${HOST}, O=ITP test issuer`,
      dnsNames: [HOST],
      root: 'CN=ITP test issuer CA, O=ITP',
    });
    const [row] = await rows();
    expect(row?.thumbprint).toBe(summary.thumbprint);
    expect(row?.private_key).toMatch(/^v1\.k1\./);
    for (const secret of [
      good.privateJwk.d as string,
      good.keyPem,
      Buffer.from(good.privateJwk.d as string, 'base64url').toString('hex'),
    ]) {
      expect(row?.private_key).not.toContain(secret);
    }
    expect(row?.chain_pem.trim()).toBe(good.leafPem.trim());
    expect(row?.root_pem.trim()).toBe(good.caPem.trim());
    // Another DID_KMS_SECRET_KEY does not open it (and the message names the key id only).
    const otherKeys = new IssuerKeyStore(
      database,
      new IssuerKeySeal({
        current: parseKmsKey(`k9:${randomBytes(32).toString('hex')}`),
        previous: [],
      }),
    );
    const err = await otherKeys.list().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KmsKeyUnavailableError);
    expect((err as Error).message).toMatch(/sealed under key id "k1"/);
    // Copied into another row, the sealed value does not open (associated data: its thumbprint).
    await database.db
      .insertInto('did_sd_jwt_issuer_keys')
      .values({ ...(row as NonNullable<typeof row>), thumbprint: 'moved' })
      .execute();
    await expect(store.list()).rejects.toBeInstanceOf(KmsKeyUnavailableError);
    await database.db
      .deleteFrom('did_sd_jwt_issuer_keys')
      .where('thumbprint', '=', 'moved')
      .execute();
  });

  it('renews the certificate of the current key: same thumbprint, new chain; refuses another key', async () => {
    const [before] = await store.list();
    const renewedCa = await createCa({ subject: 'CN=ITP renewed issuer CA, O=ITP' });
    // The same key certified by another CA (what a renewal from the operator's CA gives).
    const renewed = await issueLeafFor(renewedCa, good.privateJwk, HOST);
    const summary = await renewIssuerCertificate(store, {
      chainPem: `${renewed}\n${renewedCa.pem}`,
      publicUrl: PUBLIC_URL,
    });
    expect(summary.thumbprint).toBe(before?.thumbprint);
    expect(summary.root).toBe('CN=ITP renewed issuer CA, O=ITP');
    const [after] = await store.list();
    expect(after?.privateJwk).toEqual(before?.privateJwk);
    expect(after?.x5c).not.toEqual(before?.x5c);
    const other = await testIssuerPki(HOST);
    await expect(
      renewIssuerCertificate(store, { chainPem: other.chainPem, publicUrl: PUBLIC_URL }),
    ).rejects.toThrow(/certifies another public key than the given key/);
    expect((await store.list())[0]?.x5c).toEqual(after?.x5c);
  });

  it('a newer import becomes current; importing a key again makes it current again', async () => {
    const second = await testIssuerPki(HOST);
    const s2 = await importIssuerKey(store, {
      keyText: JSON.stringify(second.privateJwk),
      chainPem: second.leafPem,
      rootPem: second.caPem,
      publicUrl: PUBLIC_URL,
    });
    expect((await store.list()).map((k) => k.thumbprint)[0]).toBe(s2.thumbprint);
    const again = await importIssuerKey(store, {
      keyText: good.keyPem,
      chainPem: good.chainPem,
      publicUrl: PUBLIC_URL,
    });
    expect((await store.list()).map((k) => k.thumbprint)).toEqual([
      again.thumbprint,
      s2.thumbprint,
    ]);
  });
});
