import type { webcrypto } from 'node:crypto';
import { verifyCertificateChain, type TrustAnchors } from '@itp/x509';
import type { CompactJwsParts } from './split-compact-jws.js';
import { verifyEs256 } from './verify-es256.js';

export type X5cJwsResult =
  | { ok: true; subject: string; publicKey: webcrypto.CryptoKey }
  | { ok: false; failed: 'untrusted' | 'signature'; reason: string };

/**
 * Checks a JWS signed under an `x5c` header (HAIP): the chain ends in a trust anchor
 * (`@itp/x509`), `alg` is ES256, and the leaf's key made the signature. When the header has no
 * `x5c` and `fallbackKey` is given (a status list token signed by the credential's issuer key),
 * that key is used instead.
 */
export async function verifyX5cJws(
  jws: CompactJwsParts,
  anchors: TrustAnchors,
  now: Date,
  fallback?: { subject: string; publicKey: webcrypto.CryptoKey },
): Promise<X5cJwsResult> {
  const signer = await signerOf(jws.header.x5c, anchors, now, fallback);
  if (!signer.ok) return signer;
  if (jws.header.alg !== 'ES256') {
    return { ok: false, failed: 'signature', reason: `alg ${String(jws.header.alg)} is not ES256` };
  }
  if (!(await verifyEs256(signer.publicKey, jws.signingInput, jws.signature))) {
    return { ok: false, failed: 'signature', reason: "the signature is not the x5c leaf key's" };
  }
  return signer;
}

async function signerOf(
  x5c: unknown,
  anchors: TrustAnchors,
  now: Date,
  fallback: { subject: string; publicKey: webcrypto.CryptoKey } | undefined,
): Promise<X5cJwsResult> {
  if (x5c === undefined && fallback !== undefined) return { ok: true, ...fallback };
  if (!Array.isArray(x5c) || x5c.length === 0 || !x5c.every((c) => typeof c === 'string')) {
    return { ok: false, failed: 'untrusted', reason: 'no x5c certificate chain in the header' };
  }
  try {
    const { subject, publicKey } = await verifyCertificateChain(x5c as string[], anchors, now);
    return { ok: true, subject, publicKey };
  } catch (error) {
    const reason = error instanceof Error ? error.message : 'the chain was not accepted';
    return { ok: false, failed: 'untrusted', reason };
  }
}
