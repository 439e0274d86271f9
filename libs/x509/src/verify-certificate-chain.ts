import './setup.js';
import {
  BasicConstraintsExtension,
  KeyUsageFlags,
  KeyUsagesExtension,
  SubjectAlternativeNameExtension,
  type X509Certificate,
} from '@peculiar/x509';
import { webcrypto } from 'node:crypto';
import { checkCriticalExtensions, checkSignatureAlgorithm } from './check-certificate-profile.js';
import { parseDerCertificate } from './parse-der-certificate.js';
import type { TrustAnchors } from './trust-anchors.js';
import { UntrustedCertificateError } from './untrusted-certificate-error.js';
import type { CryptoKey, JsonWebKey } from './web-crypto-types.js';

/** The leaf of a chain that verifyCertificateChain accepted, and its key. */
export interface VerifiedChain {
  leaf: X509Certificate;
  /** The leaf's public key (WebCrypto, usable to verify). */
  publicKey: CryptoKey;
  /** The same key as a public JWK (no key_ops/ext). */
  publicKeyJwk: JsonWebKey;
  subject: string;
  /** The leaf's SAN dNSName entries. */
  dnsNames: string[];
  /**
   * When every certificate of the accepted path (the trust anchor included) is valid: the latest
   * notBefore and the earliest notAfter. Outside it, the same chain is refused ('validity').
   */
  validFrom: Date;
  validUntil: Date;
}

/** More certificates than any real wallet or issuer chain: refused before any signature check. */
export const MAX_CHAIN_LENGTH = 10;
/** Bytes of one DER certificate: real ones are 0.5 to 2 KiB. */
export const MAX_CERTIFICATE_BYTES = 16 * 1024;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * Checks an x5c chain (base64 DER strings as in a JOSE header, or DER bytes as in an mdoc
 * x5chain; leaf first) against the trust anchors at `now`: every certificate parses and is within
 * its validity, each is issued and signed by the next, the last is an anchor or is issued and
 * signed by one, every issuing certificate (intermediate or anchor) is a CA allowed to sign
 * certificates within its path length, and the leaf is not a CA. Throws UntrustedCertificateError.
 */
export async function verifyCertificateChain(
  x5c: readonly (string | Uint8Array)[],
  anchors: TrustAnchors,
  now: Date = new Date(),
): Promise<VerifiedChain> {
  if (x5c.length === 0) throw new UntrustedCertificateError('empty-chain', 'no certificate');
  if (x5c.length > MAX_CHAIN_LENGTH) {
    throw new UntrustedCertificateError(
      'chain-too-long',
      `${x5c.length} certificates (at most ${MAX_CHAIN_LENGTH})`,
    );
  }
  const chain = x5c.map(parseChainEntry);
  const leaf = chain[0] as X509Certificate;
  chain.forEach((certificate, index) => {
    const name = `x5c[${index}]`;
    checkValidity(certificate, name, now);
    checkCriticalExtensions(certificate, name);
  });
  if (isCa(leaf)) {
    throw new UntrustedCertificateError(
      'leaf-is-ca',
      `x5c[0] (${leaf.subject}) is a CA certificate`,
    );
  }
  checkLeafKeyUsage(leaf);
  for (let index = 1; index < chain.length; index += 1) {
    await checkIssuedBy(chain, index - 1, chain[index] as X509Certificate, `x5c[${index}]`);
  }
  const last = chain[chain.length - 1] as X509Certificate;
  const path = [...chain];
  if (anchors.certificates.some((anchor) => sameCertificate(anchor, last))) {
    if (chain.length === 1) {
      throw new UntrustedCertificateError('not-a-ca', 'x5c[0] is a trust anchor that is not a CA');
    }
  } else {
    const anchor = await findIssuingAnchor(last, anchors);
    checkValidity(anchor, `trust anchor ${anchor.subject}`, now);
    checkCriticalExtensions(anchor, 'the trust anchor');
    await checkIssuedBy(chain, chain.length - 1, anchor, `trust anchor ${anchor.subject}`);
    path.push(anchor);
  }
  return describeLeaf(leaf, validityWindow(path));
}

function validityWindow(path: readonly X509Certificate[]): { validFrom: Date; validUntil: Date } {
  const from = Math.max(...path.map((certificate) => certificate.notBefore.getTime()));
  const until = Math.min(...path.map((certificate) => certificate.notAfter.getTime()));
  return { validFrom: new Date(from), validUntil: new Date(until) };
}

function parseChainEntry(entry: string | Uint8Array, index: number): X509Certificate {
  let der: Uint8Array;
  if (typeof entry === 'string') {
    if (!BASE64.test(entry)) {
      throw new UntrustedCertificateError('unparsable-certificate', `x5c[${index}] is not base64`);
    }
    der = Buffer.from(entry, 'base64');
  } else {
    der = entry;
  }
  if (der.byteLength > MAX_CERTIFICATE_BYTES) {
    throw new UntrustedCertificateError(
      'unparsable-certificate',
      `x5c[${index}] is ${der.byteLength} bytes (at most ${MAX_CERTIFICATE_BYTES})`,
    );
  }
  try {
    return parseDerCertificate(der);
  } catch {
    throw new UntrustedCertificateError(
      'unparsable-certificate',
      `x5c[${index}] is not a DER X.509 certificate`,
    );
  }
}

function checkValidity(certificate: X509Certificate, name: string, now: Date): void {
  if (now < certificate.notBefore) {
    throw new UntrustedCertificateError(
      'validity',
      `${name} (${certificate.subject}) is not valid before ${certificate.notBefore.toISOString()}`,
    );
  }
  if (now > certificate.notAfter) {
    throw new UntrustedCertificateError(
      'validity',
      `${name} (${certificate.subject}) expired at ${certificate.notAfter.toISOString()}`,
    );
  }
}

function isCa(certificate: X509Certificate): boolean {
  return certificate.getExtension(BasicConstraintsExtension)?.ca === true;
}

function hasKeyUsage(certificate: X509Certificate, flag: KeyUsageFlags): boolean {
  const keyUsage = certificate.getExtension(KeyUsagesExtension);
  return keyUsage === null || (keyUsage.usages & flag) !== 0;
}

function checkLeafKeyUsage(leaf: X509Certificate): void {
  if (!hasKeyUsage(leaf, KeyUsageFlags.digitalSignature)) {
    throw new UntrustedCertificateError(
      'leaf-key-usage',
      `x5c[0] (${leaf.subject}) has a keyUsage without digitalSignature`,
    );
  }
}

/**
 * chain[index] must name `issuer` as its issuer and carry its signature; `issuer` must be a CA
 * allowed to sign certificates, with room in its pathLenConstraint for the CAs below it.
 */
async function checkIssuedBy(
  chain: readonly X509Certificate[],
  index: number,
  issuer: X509Certificate,
  issuerName: string,
): Promise<void> {
  const subject = chain[index] as X509Certificate;
  if (subject.issuer !== issuer.subject) {
    throw new UntrustedCertificateError(
      'chain-order',
      `x5c[${index}] is issued by ${subject.issuer}, not by ${issuerName} (${issuer.subject})`,
    );
  }
  const basicConstraints = issuer.getExtension(BasicConstraintsExtension);
  if (basicConstraints?.ca !== true) {
    throw new UntrustedCertificateError('not-a-ca', `${issuerName} is not a CA certificate`);
  }
  if (!hasKeyUsage(issuer, KeyUsageFlags.keyCertSign)) {
    throw new UntrustedCertificateError(
      'ca-key-usage',
      `${issuerName} has a keyUsage without keyCertSign`,
    );
  }
  // The CAs below the issuer, leaf excluded (RFC 5280 6.1.4 (l), self-issued ones included).
  const casBelow = index;
  if (basicConstraints.pathLength !== undefined && casBelow > basicConstraints.pathLength) {
    throw new UntrustedCertificateError(
      'path-length',
      `${issuerName} allows ${basicConstraints.pathLength} intermediate CA(s) below it, the chain has ${casBelow}`,
    );
  }
  checkSignatureAlgorithm(subject, `x5c[${index}]`);
  const signed = await subject
    .verify({ publicKey: issuer, signatureOnly: true })
    .catch(() => false);
  if (!signed && !(await hasUsableKey(issuer))) {
    throw new UntrustedCertificateError(
      'unsupported-key',
      `${issuerName} (${issuer.subject}) has a key Node's WebCrypto cannot use (e.g. a brainpool curve)`,
    );
  }
  if (!signed) {
    throw new UntrustedCertificateError(
      'chain-signature',
      `x5c[${index}] is not signed by ${issuerName} (${issuer.subject})`,
    );
  }
}

async function findIssuingAnchor(
  last: X509Certificate,
  anchors: TrustAnchors,
): Promise<X509Certificate> {
  const named = anchors.certificates.filter((anchor) => anchor.subject === last.issuer);
  for (const anchor of named) {
    const signed = await last.verify({ publicKey: anchor, signatureOnly: true }).catch(() => false);
    if (signed) return anchor;
  }
  for (const anchor of named) {
    if (!(await hasUsableKey(anchor))) {
      throw new UntrustedCertificateError(
        'unsupported-key',
        `the trust anchor ${anchor.subject} has a key Node's WebCrypto cannot use (e.g. a brainpool curve)`,
      );
    }
  }
  throw new UntrustedCertificateError(
    'untrusted-anchor',
    `the chain's last certificate (${last.subject}) is not a trust anchor and is not signed by one (issuer ${last.issuer})`,
  );
}

function sameCertificate(a: X509Certificate, b: X509Certificate): boolean {
  return Buffer.from(a.rawData).equals(Buffer.from(b.rawData));
}

function hasUsableKey(certificate: X509Certificate): Promise<boolean> {
  return certificate.publicKey.export().then(
    () => true,
    () => false,
  );
}

async function describeLeaf(
  leaf: X509Certificate,
  window: { validFrom: Date; validUntil: Date },
): Promise<VerifiedChain> {
  const publicKey = await leaf.publicKey.export().catch(() => {
    throw new UntrustedCertificateError(
      'unsupported-key',
      `x5c[0] (${leaf.subject}) has a key Node's WebCrypto cannot use (e.g. a brainpool curve)`,
    );
  });
  const { kty, crv, x, y, n, e } = await webcrypto.subtle.exportKey('jwk', publicKey);
  // The public members only (no key_ops / ext), without the ones the key type does not have.
  const publicKeyJwk = Object.fromEntries(
    Object.entries({ kty, crv, x, y, n, e }).filter(([, value]) => value !== undefined),
  ) as JsonWebKey;
  const san = leaf.getExtension(SubjectAlternativeNameExtension);
  const dnsNames = (san?.names.items ?? [])
    .filter((name) => name.type === 'dns')
    .map((name) => name.value);
  return { leaf, publicKey, publicKeyJwk, subject: leaf.subject, dnsNames, ...window };
}
