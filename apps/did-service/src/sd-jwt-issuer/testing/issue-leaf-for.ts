import { webcrypto } from 'node:crypto';
import type { JWK } from 'jose';
import {
  BasicConstraintsExtension,
  KeyUsageFlags,
  KeyUsagesExtension,
  SubjectAlternativeNameExtension,
  X509CertificateGenerator,
} from '@peculiar/x509';
// @itp/x509's setup (the WebCrypto provider of @peculiar/x509) runs with its index.
import type { CreatedCa } from '@itp/x509';
import '@itp/x509';

const ES256 = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };

/**
 * Test only: a leaf certificate (PEM) for an existing P-256 key, issued by `ca`: what a
 * certificate renewal for the same key gives.
 */
export async function issueLeafFor(ca: CreatedCa, privateJwk: JWK, host: string): Promise<string> {
  const { kty, crv, x, y } = privateJwk;
  const publicKey = await webcrypto.subtle.importKey(
    'jwk',
    { kty, crv, x, y } as webcrypto.JsonWebKey,
    ES256,
    true,
    ['verify'],
  );
  const notBefore = new Date(Date.now() - 60_000);
  const certificate = await X509CertificateGenerator.create({
    subject: `CN=${host}, O=ITP renewed issuer`,
    issuer: ca.certificate.subject,
    notBefore,
    notAfter: new Date(notBefore.getTime() + 30 * 24 * 3600_000),
    signingAlgorithm: ES256,
    publicKey,
    signingKey: ca.privateKey,
    extensions: [
      new BasicConstraintsExtension(false, undefined, true),
      new KeyUsagesExtension(KeyUsageFlags.digitalSignature, true),
      new SubjectAlternativeNameExtension([{ type: 'dns', value: host }]),
    ],
  });
  return certificate.toString('pem');
}
