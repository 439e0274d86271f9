import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import {
  BasicConstraintsExtension,
  Extension,
  KeyUsageFlags,
  KeyUsagesExtension,
  X509CertificateGenerator,
  type X509Certificate,
} from '@peculiar/x509';
import { webcrypto } from 'node:crypto';
import { checkCriticalExtensions, checkSignatureAlgorithm } from './check-certificate-profile.js';
import { createCa } from './create-ca.js';
import { UntrustedCertificateError } from './untrusted-certificate-error.js';
import { verifyCertificateChain } from './verify-certificate-chain.js';

const P256 = { name: 'ECDSA', namedCurve: 'P-256' };
// A NULL value: the extension's content does not matter, only that it is critical and unknown.
const NULL_DER = new Uint8Array([0x05, 0x00]);

async function leafUnder(
  ca: { certificate: X509Certificate; privateKey: webcrypto.CryptoKey },
  opts: { hash?: string; extensions?: Extension[] } = {},
): Promise<X509Certificate> {
  const keys = await webcrypto.subtle.generateKey(P256, true, ['sign', 'verify']);
  return X509CertificateGenerator.create({
    subject: 'CN=leaf',
    issuer: ca.certificate.subject,
    publicKey: keys.publicKey,
    signingKey: ca.privateKey,
    signingAlgorithm: { ...P256, hash: opts.hash ?? 'SHA-256' },
    notBefore: new Date(Date.now() - 60_000),
    notAfter: new Date(Date.now() + 86_400_000),
    extensions: [
      new BasicConstraintsExtension(false, undefined, true),
      new KeyUsagesExtension(KeyUsageFlags.digitalSignature, true),
      ...(opts.extensions ?? []),
    ],
  });
}

function ruleOf(run: () => void): string {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(UntrustedCertificateError);
    return (err as UntrustedCertificateError).rule;
  }
  return 'accepted';
}

describe('checkCriticalExtensions', () => {
  it('accepts the usual critical extensions, and unknown ones that are not critical', async () => {
    const ca = await createCa({ subject: 'CN=CA' });
    const leaf = await leafUnder(ca, { extensions: [new Extension('1.2.3.4', false, NULL_DER)] });
    expect(ruleOf(() => checkCriticalExtensions(ca.certificate, 'ca'))).toBe('accepted');
    expect(ruleOf(() => checkCriticalExtensions(leaf, 'leaf'))).toBe('accepted');
  });

  it('refuses a critical extension it does not understand (nameConstraints, a private one)', async () => {
    const ca = await createCa({ subject: 'CN=CA' });
    for (const oid of ['2.5.29.30', '1.2.3.4']) {
      const leaf = await leafUnder(ca, { extensions: [new Extension(oid, true, NULL_DER)] });
      expect(ruleOf(() => checkCriticalExtensions(leaf, 'x5c[0]'))).toBe('critical-extension');
      const err = await verifyCertificateChain([leaf.toString('base64')], {
        certificates: [ca.certificate],
      }).catch((e: UntrustedCertificateError) => e);
      expect(err).toMatchObject({ rule: 'critical-extension' });
    }
  });
});

describe('checkSignatureAlgorithm', () => {
  it('accepts ECDSA with SHA-256 and SHA-384', async () => {
    const ca = await createCa({ subject: 'CN=CA' });
    for (const hash of ['SHA-256', 'SHA-384']) {
      const leaf = await leafUnder(ca, { hash });
      expect(ruleOf(() => checkSignatureAlgorithm(leaf, 'x5c[0]'))).toBe('accepted');
    }
  });

  it('refuses a certificate signed with SHA-1, even with a valid signature by a trusted CA', async () => {
    const ca = await createCa({ subject: 'CN=CA' });
    const leaf = await leafUnder(ca, { hash: 'SHA-1' });
    await expect(leaf.verify({ publicKey: ca.certificate, signatureOnly: true })).resolves.toBe(
      true,
    );
    expect(ruleOf(() => checkSignatureAlgorithm(leaf, 'x5c[0]'))).toBe('signature-algorithm');
    const err = await verifyCertificateChain([leaf.toString('base64')], {
      certificates: [ca.certificate],
    }).catch((e: UntrustedCertificateError) => e);
    expect(err).toMatchObject({ rule: 'signature-algorithm' });
  });
});
