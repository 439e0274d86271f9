import type { X509Certificate } from '@peculiar/x509';
import { CertificateBundleError } from './certificate-bundle-error.js';
import { parseDerCertificate } from './parse-der-certificate.js';

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END ([A-Z0-9 ]+)-----/g;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * The certificates of a PEM bundle, in order. Text between the blocks (comments, openssl's
 * `subject=` lines) is ignored; an empty bundle gives []. Throws CertificateBundleError naming the
 * entry (1-based) for a block that is not a CERTIFICATE (a private key pasted in by mistake) or
 * does not parse, for an unterminated block, and for non-empty text without any block.
 */
export function parsePemBundle(pem: string): X509Certificate[] {
  const certificates: X509Certificate[] = [];
  let entry = 0;
  for (const match of pem.matchAll(PEM_BLOCK)) {
    entry += 1;
    const [, label, body = '', endLabel] = match;
    if (label !== 'CERTIFICATE' || endLabel !== 'CERTIFICATE') {
      throw new CertificateBundleError(
        `PEM bundle entry ${entry} is a ${label ?? 'unknown'} block, not a CERTIFICATE`,
      );
    }
    certificates.push(parseEntry(body, entry));
  }
  const rest = pem.replace(PEM_BLOCK, '');
  if (rest.includes('-----BEGIN') || rest.includes('-----END')) {
    throw new CertificateBundleError(
      `PEM bundle entry ${entry + 1} is not terminated by a matching -----END line`,
    );
  }
  if (entry === 0 && rest.trim() !== '') {
    throw new CertificateBundleError('PEM bundle holds no -----BEGIN CERTIFICATE----- block');
  }
  return certificates;
}

function parseEntry(body: string, entry: number): X509Certificate {
  const base64 = body.replace(/\s+/g, '');
  if (!BASE64.test(base64)) {
    throw new CertificateBundleError(`PEM bundle entry ${entry} is not valid base64`);
  }
  const der = Buffer.from(base64, 'base64');
  try {
    return parseDerCertificate(der);
  } catch (cause) {
    throw new CertificateBundleError(`PEM bundle entry ${entry} is not an X.509 certificate`, {
      cause,
    });
  }
}
