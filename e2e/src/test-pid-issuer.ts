/**
 * A test PID provider of the EU wallet profile (HAIP), standing in for a member state's: a CA of
 * its own and a signing leaf (`@itp/x509`), the CA written as the PEM bundle a stack's auth-service
 * trusts through TRUSTED_ISSUER_CERTIFICATES (docs/api.md §14). The credentials it signs are made
 * with the other side's libraries (`@itp/presentations/testing`: `@sd-jwt/*`, `@owf/mdoc`). The
 * caller imports `reflect-metadata` first (see @itp/x509's setup). No jest in here.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createCa, issueLeaf, type JsonWebKey } from '@itp/x509';

export interface TestPidIssuer {
  /** What `issueTestSdJwtVc` / `issueTestMdoc` sign with: the leaf's key and its x5c chain. */
  signer: { privateKeyJwk: JsonWebKey; x5c: string[] };
  /** The CA (PEM): the trust anchor. */
  caPem: string;
  /** The file holding `caPem`: the value of TRUSTED_ISSUER_CERTIFICATES. */
  trustedIssuersFile: string;
}

/** A new CA and leaf (SAN `issuer.example`); the CA written to `<dir>/trusted-issuers.pem`. */
export async function createTestPidIssuer(dir: string): Promise<TestPidIssuer> {
  const ca = await createCa({ subject: 'CN=Test PID provider CA' });
  const leaf = await issueLeaf(ca, { subject: 'CN=issuer.example', dnsNames: ['issuer.example'] });
  const trustedIssuersFile = join(dir, 'trusted-issuers.pem');
  await writeFile(trustedIssuersFile, ca.pem);
  return {
    signer: { privateKeyJwk: leaf.privateKeyJwk, x5c: leaf.x5c },
    caPem: ca.pem,
    trustedIssuersFile,
  };
}
