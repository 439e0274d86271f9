import './setup.js';
import {
  BasicConstraintsExtension,
  KeyUsagesExtension,
  SubjectAlternativeNameExtension,
  X509Certificate,
} from '@peculiar/x509';

/**
 * One DER certificate, nothing before or after it (the parser alone would ignore trailing bytes).
 * The extensions the chain checks read, and the public key, are parsed here too, so that a
 * malformed one fails now. Throws a plain Error: the callers say which entry it was.
 */
export function parseDerCertificate(der: Uint8Array): X509Certificate {
  const length = outerLength(der);
  if (length !== der.byteLength) {
    throw new Error(`DER length ${length ?? 'unreadable'}, ${der.byteLength} bytes given`);
  }
  const certificate = new X509Certificate(der);
  certificate.getExtension(BasicConstraintsExtension);
  certificate.getExtension(KeyUsagesExtension);
  certificate.getExtension(SubjectAlternativeNameExtension);
  void certificate.publicKey.algorithm;
  return certificate;
}

/** Header plus content length of the outer SEQUENCE, from its DER tag and length octets. */
function outerLength(der: Uint8Array): number | undefined {
  if (der.byteLength < 2 || der[0] !== 0x30) return undefined;
  const first = der[1] as number;
  if (first < 0x80) return 2 + first;
  const octets = first & 0x7f;
  if (octets === 0 || octets > 4 || der.byteLength < 2 + octets) return undefined;
  let length = 0;
  for (let i = 0; i < octets; i += 1) length = length * 256 + (der[2 + i] as number);
  return 2 + octets + length;
}
