import type { webcrypto } from 'node:crypto';
import { verifyCertificateChain, type ChainVerificationCache, type TrustAnchors } from '@itp/x509';
import type { CompactJwsParts } from './split-compact-jws.js';
import { verifyEs256 } from './verify-es256.js';

/** A signer whose chain was accepted: its leaf's subject and key, and the x5c as given. */
export interface X5cSigner {
  subject: string;
  publicKey: webcrypto.CryptoKey;
  /** The x5c header it was accepted from (absent for a key taken without a chain). */
  x5c?: readonly string[];
}

export type X5cJwsResult =
  ({ ok: true } & X5cSigner) | { ok: false; failed: 'untrusted' | 'signature'; reason: string };

/**
 * Checks a JWS signed under an `x5c` header (HAIP): the chain ends in a trust anchor
 * (`@itp/x509`, through `chains` when given: its remembered successes), `alg` is ES256, and the
 * leaf's key made the signature. `known` is a signer accepted at the same `now` against the same
 * anchors (the credential's issuer, for its status list token): when the header has no `x5c`,
 * its key is used; when the header's `x5c` is exactly the known one, its chain is not checked a
 * second time.
 */
export async function verifyX5cJws(
  jws: CompactJwsParts,
  anchors: TrustAnchors,
  now: Date,
  known?: X5cSigner,
  chains?: ChainVerificationCache,
): Promise<X5cJwsResult> {
  const signer = await signerOf(jws.header.x5c, anchors, now, known, chains);
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
  known: X5cSigner | undefined,
  chains: ChainVerificationCache | undefined,
): Promise<X5cJwsResult> {
  if (x5c === undefined && known !== undefined) {
    return { ok: true, subject: known.subject, publicKey: known.publicKey };
  }
  if (!Array.isArray(x5c) || x5c.length === 0 || !x5c.every((c) => typeof c === 'string')) {
    return { ok: false, failed: 'untrusted', reason: 'no x5c certificate chain in the header' };
  }
  const chain = x5c as string[];
  if (known?.x5c !== undefined && sameChain(known.x5c, chain)) return { ok: true, ...known };
  try {
    const { subject, publicKey } = chains
      ? await chains.verifyCertificateChain(chain, anchors, now)
      : await verifyCertificateChain(chain, anchors, now);
    return { ok: true, subject, publicKey, x5c: chain };
  } catch (error) {
    const reason = error instanceof Error ? error.message : 'the chain was not accepted';
    return { ok: false, failed: 'untrusted', reason };
  }
}

function sameChain(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((entry, index) => entry === b[index]);
}
