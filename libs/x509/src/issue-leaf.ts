import { KeyUsageFlags, type X509Certificate } from '@peculiar/x509';
import { webcrypto } from 'node:crypto';
import { generateCertificate, type CertificateWithKey } from './generate-certificate.js';
import { validityPeriod } from './validity-period.js';
import type { CryptoKey, JsonWebKey } from './web-crypto-types.js';

export interface IssueLeafOptions {
  /** A distinguished name, e.g. `CN=localhost`. */
  subject: string;
  /** SAN dNSName entries (x509_san_dns client identifiers, SD-JWT VC issuers). */
  dnsNames?: string[];
  /** Default 365 days. */
  validityDays?: number;
  /** The only kind: digitalSignature (ES256 request objects, SD-JWT VCs, mdoc MSOs). */
  keyUsage?: 'signing';
}

export interface IssuedLeaf {
  certificate: X509Certificate;
  privateKey: CryptoKey;
  /** The private key as a JWK (kty, crv, x, y, d): a dev secret, never logged or served. */
  privateKeyJwk: JsonWebKey;
  /** The leaf then the CA, base64 DER (a JOSE x5c header). */
  x5c: string[];
}

/** A signing leaf (P-256, ES256, not a CA) issued by `ca`: for the dev stack and tests. */
export async function issueLeaf(
  ca: CertificateWithKey,
  opts: IssueLeafOptions,
): Promise<IssuedLeaf> {
  const { certificate, privateKey } = await generateCertificate({
    subject: opts.subject,
    issuer: ca,
    ca: false,
    keyUsages: KeyUsageFlags.digitalSignature,
    ...(opts.dnsNames === undefined ? {} : { dnsNames: opts.dnsNames }),
    ...validityPeriod(opts.validityDays ?? 365),
  });
  const { kty, crv, x, y, d } = await webcrypto.subtle.exportKey('jwk', privateKey);
  return {
    certificate,
    privateKey,
    privateKeyJwk: { kty, crv, x, y, d },
    x5c: [certificate.toString('base64'), ca.certificate.toString('base64')],
  };
}
