import type { X509Certificate } from '@peculiar/x509';
import { UntrustedCertificateError } from './untrusted-certificate-error.js';

/**
 * The extensions the checks understand or that change nothing for them: a certificate with
 * another one marked critical is refused (RFC 5280 4.2), e.g. nameConstraints, which is not
 * enforced here. extKeyUsage is critical in ISO 18013-5 document signer certificates.
 */
export const UNDERSTOOD_CRITICAL_EXTENSIONS: ReadonlySet<string> = new Set([
  '2.5.29.19', // basicConstraints
  '2.5.29.15', // keyUsage
  '2.5.29.37', // extKeyUsage
  '2.5.29.17', // subjectAltName
  '2.5.29.18', // issuerAltName
  '2.5.29.14', // subjectKeyIdentifier
  '2.5.29.35', // authorityKeyIdentifier
  '2.5.29.32', // certificatePolicies (no policy is required here)
]);

interface SignatureAlgorithm {
  name: string;
  hash?: { name: string };
}

const SIGNATURE_HASHES = new Set(['SHA-256', 'SHA-384', 'SHA-512']);
const HASHED_SIGNATURES = new Set(['ECDSA', 'RSASSA-PKCS1-v1_5', 'RSA-PSS']);
const PURE_SIGNATURES = new Set(['Ed25519', 'EdDSA']);

/** Refuses a certificate carrying a critical extension that is not understood here. */
export function checkCriticalExtensions(certificate: X509Certificate, name: string): void {
  const unknown = certificate.extensions.find(
    (extension) => extension.critical && !UNDERSTOOD_CRITICAL_EXTENSIONS.has(extension.type),
  );
  if (unknown !== undefined) {
    throw new UntrustedCertificateError(
      'critical-extension',
      `${name} (${certificate.subject}) has a critical extension ${unknown.type} that is not understood`,
    );
  }
}

/**
 * Refuses a certificate signed with a weak or unknown algorithm (SHA-1, MD5): its signature is
 * verified, so it must be one that cannot be forged. A trust anchor's own signature is not.
 */
export function checkSignatureAlgorithm(certificate: X509Certificate, name: string): void {
  let algorithm: SignatureAlgorithm;
  try {
    // Typed against the DOM's Algorithm, which this workspace does not load.
    algorithm = certificate.signatureAlgorithm as unknown as SignatureAlgorithm;
  } catch {
    algorithm = { name: 'unknown' };
  }
  const allowed = HASHED_SIGNATURES.has(algorithm.name)
    ? SIGNATURE_HASHES.has(algorithm.hash?.name ?? '')
    : PURE_SIGNATURES.has(algorithm.name);
  if (!allowed) {
    const label =
      algorithm.hash === undefined
        ? algorithm.name
        : `${algorithm.name} with ${algorithm.hash.name}`;
    throw new UntrustedCertificateError(
      'signature-algorithm',
      `${name} (${certificate.subject}) is signed with ${label}, not with SHA-256 or stronger`,
    );
  }
}
