import type { X509Certificate } from '@peculiar/x509';
import { parsePemBundle } from './parse-pem-bundle.js';

/** The certificates an x5c chain must end in (TRUSTED_ISSUER_CERTIFICATES). */
export interface TrustAnchors {
  certificates: readonly X509Certificate[];
}

/** Trust anchors from PEM bundles (each string one bundle); the same certificate is kept once. */
export function trustAnchorsFrom(pems: readonly string[]): TrustAnchors {
  const seen = new Set<string>();
  const certificates: X509Certificate[] = [];
  pems.forEach((pem) => {
    for (const certificate of parsePemBundle(pem)) {
      const der = Buffer.from(certificate.rawData).toString('base64');
      if (seen.has(der)) continue;
      seen.add(der);
      certificates.push(certificate);
    }
  });
  return { certificates };
}
