import { isIP } from 'node:net';
import type { JWK } from 'jose';
import {
  CertificateBundleError,
  parsePemBundle,
  UntrustedCertificateError,
  verifyCertificateChain,
  type X509Certificate,
} from '@itp/x509';
import { SdJwtIssuerImportError } from './sd-jwt-issuer-errors.js';

/** A chain that passed every import check, in the form stored. */
export interface CheckedIssuerChain {
  /** The certificates sent as `x5c`, leaf first, without the trust anchor (HAIP), PEM. */
  chainPem: string;
  /** The trust anchor (root CA), PEM. */
  rootPem: string;
  /** The leaf's subject and expiry (for the operator's messages). */
  subject: string;
  notAfter: Date;
}

export interface IssuerChainInput {
  /** The issuer's private (or public) JWK: the leaf must certify its public key. */
  jwk: JWK;
  /** The operator's PEM bundle, leaf first; may end with its self-signed root. */
  chainPem: string;
  /** The root CA, when the bundle does not end with it. */
  rootPem?: string | undefined;
  /** PUBLIC_URL's host: the SD-JWT VC `iss` (`<PUBLIC_URL>/v2/did/oid4vci`) must match the leaf SAN. */
  host: string;
  now?: Date;
}

/**
 * The import checks of an issuer chain: it parses; its root is its last certificate when that is
 * self-signed, else the given root; it verifies to that root at `now` (@itp/x509
 * verifyCertificateChain: signatures, validity, CA constraints); the leaf certifies `jwk`; the
 * leaf has a dNSName SAN equal to `host` (draft-ietf-oauth-sd-jwt-vc: an https `iss` must match
 * the x5c leaf's SAN). Throws SdJwtIssuerImportError saying which check failed.
 */
export async function checkIssuerChain(input: IssuerChainInput): Promise<CheckedIssuerChain> {
  const host = input.host.toLowerCase();
  if (isIP(host.replace(/^\[|\]$/g, '')) !== 0) {
    throw new SdJwtIssuerImportError(
      `PUBLIC_URL's host ${host} is an IP address: the issuer's x5c leaf must name a DNS host (SAN dNSName), so PUBLIC_URL needs a host name`,
    );
  }
  const certificates = parseBundle(input.chainPem, '--chain');
  if (certificates.length === 0) throw new SdJwtIssuerImportError('the chain holds no certificate');
  const root = await rootOf(certificates, input.rootPem);
  const sent = certificates.filter((c) => !sameCertificate(c, root));
  if (sent.length === 0) {
    throw new SdJwtIssuerImportError(
      'the chain holds only its root CA: give the leaf certificate first, then any intermediates',
    );
  }
  let verified;
  try {
    verified = await verifyCertificateChain(
      sent.map((c) => c.toString('base64')),
      { certificates: [root] },
      input.now ?? new Date(),
    );
  } catch (err) {
    if (!(err instanceof UntrustedCertificateError)) throw err;
    throw new SdJwtIssuerImportError(`the certificate chain does not verify: ${err.message}`);
  }
  const { x, y, crv } = verified.publicKeyJwk;
  if (crv !== 'P-256' || x !== input.jwk.x || y !== input.jwk.y) {
    throw new SdJwtIssuerImportError(
      `the leaf certificate (${verified.subject}) certifies another public key than the given key: give the key of that certificate, or the certificate of that key`,
    );
  }
  const dnsNames = verified.dnsNames.map((n) => n.toLowerCase());
  if (!dnsNames.includes(host)) {
    throw new SdJwtIssuerImportError(
      `the leaf certificate's SAN dNSName entries (${dnsNames.join(', ') || 'none'}) do not include ${host}, the host of PUBLIC_URL: an SD-JWT VC's https iss must match its x5c leaf's SAN (draft-ietf-oauth-sd-jwt-vc)`,
    );
  }
  return {
    chainPem: sent.map((c) => c.toString('pem')).join('\n'),
    rootPem: root.toString('pem'),
    subject: verified.subject,
    notAfter: verified.leaf.notAfter,
  };
}

function parseBundle(pem: string, what: string): X509Certificate[] {
  try {
    return parsePemBundle(pem);
  } catch (err) {
    if (!(err instanceof CertificateBundleError)) throw err;
    throw new SdJwtIssuerImportError(`${what}: ${err.message}`);
  }
}

async function rootOf(
  certificates: readonly X509Certificate[],
  rootPem: string | undefined,
): Promise<X509Certificate> {
  if (rootPem !== undefined) {
    const given = parseBundle(rootPem, '--root');
    if (given.length !== 1) {
      throw new SdJwtIssuerImportError(
        `--root: give exactly one certificate (the root CA), not ${given.length}`,
      );
    }
    return given[0] as X509Certificate;
  }
  const last = certificates[certificates.length - 1] as X509Certificate;
  if (certificates.length === 1) {
    throw new SdJwtIssuerImportError(
      'the chain holds one certificate: append its root CA to the bundle, or give the root with --root',
    );
  }
  if (await last.isSelfSigned()) return last;
  throw new SdJwtIssuerImportError(
    `the chain ends with ${last.subject} (issued by ${last.issuer}), not a self-signed root CA: append the root to the bundle or give it with --root`,
  );
}

function sameCertificate(a: X509Certificate, b: X509Certificate): boolean {
  return Buffer.from(a.rawData).equals(Buffer.from(b.rawData));
}
