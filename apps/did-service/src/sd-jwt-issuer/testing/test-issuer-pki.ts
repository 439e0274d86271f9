import { createPrivateKey } from 'node:crypto';
import type { JWK } from 'jose';
import { openSqlDatabase } from '@itp/stores';
import { createCa, issueLeaf, type CreatedCa } from '@itp/x509';
import { parseKmsKey } from '../../agent/kms-keyring.js';
import type { DidTables } from '../../db/did-tables.js';
import { importIssuerKey, type IssuerKeySummary } from '../import-issuer-key.js';
import { IssuerKeySeal } from '../issuer-key-seal.js';
import { IssuerKeyStore } from '../issuer-key-store.js';

/** A test CA and an issuer leaf (P-256) naming `host`, in the forms the CLI reads. */
export interface TestIssuerPki {
  ca: CreatedCa;
  caPem: string;
  privateJwk: JWK;
  /** The private key as PKCS #8 PEM. */
  keyPem: string;
  leafPem: string;
  /** Leaf then CA (what `sd-jwt-issuer import --chain` takes). */
  chainPem: string;
}

/** Test only: a fresh CA (or `ca`) and a leaf for `host` (SAN dNSName). */
export async function testIssuerPki(
  host: string,
  opts: { ca?: CreatedCa; dnsNames?: string[]; validityDays?: number } = {},
): Promise<TestIssuerPki> {
  const ca = opts.ca ?? (await createCa({ subject: 'CN=ITP test issuer CA, O=ITP' }));
  const leaf = await issueLeaf(ca, {
    subject: `CN=${host}, O=ITP test issuer`,
    dnsNames: opts.dnsNames ?? [host],
    validityDays: opts.validityDays ?? 30,
    keyUsage: 'signing',
  });
  const privateJwk = leaf.privateKeyJwk as JWK;
  const keyPem = createPrivateKey({ key: privateJwk as never, format: 'jwk' })
    .export({ type: 'pkcs8', format: 'pem' })
    .toString();
  const leafPem = leaf.certificate.toString('pem');
  return { ca, caPem: ca.pem, privateJwk, keyPem, leafPem, chainPem: `${leafPem}\n${ca.pem}` };
}

/**
 * Test only: imports a fresh test issuer key for PUBLIC_URL's host into a did-service database
 * (as `sd-jwt-issuer import` does), sealed with `kmsSecretKey` (the service's DID_KMS_SECRET_KEY).
 * A service started after it (or within a minute, while running) signs with it.
 */
export async function importTestIssuerKey(opts: {
  databaseUrl: string;
  kmsSecretKey: string;
  publicUrl: string;
}): Promise<{ pki: TestIssuerPki; summary: IssuerKeySummary }> {
  const pki = await testIssuerPki(new URL(opts.publicUrl).hostname);
  const database = openSqlDatabase<DidTables>(opts.databaseUrl, { poolSize: 1 });
  try {
    const seal = new IssuerKeySeal({ current: parseKmsKey(opts.kmsSecretKey), previous: [] });
    const summary = await importIssuerKey(new IssuerKeyStore(database, seal), {
      keyText: pki.keyPem,
      chainPem: pki.chainPem,
      publicUrl: opts.publicUrl,
    });
    return { pki, summary };
  } finally {
    await database.close();
  }
}
