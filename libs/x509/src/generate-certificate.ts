import './setup.js';
import {
  AuthorityKeyIdentifierExtension,
  BasicConstraintsExtension,
  KeyUsagesExtension,
  SubjectAlternativeNameExtension,
  SubjectKeyIdentifierExtension,
  X509CertificateGenerator,
  type Extension,
  type KeyUsageFlags,
  type X509Certificate,
} from '@peculiar/x509';
import { webcrypto } from 'node:crypto';
import type { CryptoKey, CryptoKeyPair, EcKeyGenParams, EcdsaParams } from './web-crypto-types.js';

/** ECDSA P-256 with SHA-256: ES256 in JOSE, -7 in COSE. */
export const ES256_KEY_ALGORITHM: EcKeyGenParams & EcdsaParams = {
  name: 'ECDSA',
  namedCurve: 'P-256',
  hash: 'SHA-256',
};

/** A certificate and the private key that signs for it. */
export interface CertificateWithKey {
  certificate: X509Certificate;
  privateKey: CryptoKey;
}

export interface CertificateParams {
  /** A distinguished name, e.g. `CN=ITP dev CA, O=ITP`. */
  subject: string;
  /** The CA that signs; none: self-signed. */
  issuer?: CertificateWithKey;
  ca: boolean;
  pathLength?: number;
  keyUsages: KeyUsageFlags;
  dnsNames?: readonly string[];
  notBefore: Date;
  notAfter: Date;
}

/**
 * A new P-256 key pair (extractable, so that a dev leaf's key can be written as a JWK) and a
 * certificate for it, with basicConstraints and keyUsage critical, subject and authority key ids.
 */
export async function generateCertificate(
  params: CertificateParams,
): Promise<CertificateWithKey & { keys: CryptoKeyPair }> {
  const keys = (await webcrypto.subtle.generateKey(ES256_KEY_ALGORITHM, true, [
    'sign',
    'verify',
  ])) as CryptoKeyPair;
  const issuerPublicKey = params.issuer?.certificate.publicKey ?? keys.publicKey;
  const extensions: Extension[] = [
    new BasicConstraintsExtension(params.ca, params.ca ? params.pathLength : undefined, true),
    new KeyUsagesExtension(params.keyUsages, true),
    await SubjectKeyIdentifierExtension.create(keys.publicKey),
    await AuthorityKeyIdentifierExtension.create(issuerPublicKey),
  ];
  if (params.dnsNames !== undefined && params.dnsNames.length > 0) {
    extensions.push(
      new SubjectAlternativeNameExtension(
        params.dnsNames.map((value) => ({ type: 'dns' as const, value })),
      ),
    );
  }
  const certificate = await X509CertificateGenerator.create({
    subject: params.subject,
    issuer: params.issuer?.certificate.subject ?? params.subject,
    publicKey: keys.publicKey,
    signingKey: params.issuer?.privateKey ?? keys.privateKey,
    signingAlgorithm: ES256_KEY_ALGORITHM,
    notBefore: params.notBefore,
    notAfter: params.notAfter,
    extensions,
  });
  return { certificate, privateKey: keys.privateKey, keys };
}
