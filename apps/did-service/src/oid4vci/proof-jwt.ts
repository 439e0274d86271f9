import { Oid4vciError } from './oid4vci-error.js';

/**
 * The algorithms a key proof may be signed with: the metadata's `proof_signing_alg_values_supported`
 * and what proof-keys.ts verifies (did-jwt). Never `none`.
 */
export const PROOF_SIGNING_ALGS = ['ES256', 'ES256K', 'EdDSA'] as const;

const invalidProof = (description: string) => new Oid4vciError(400, 'invalid_proof', description);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A base64url JSON object segment of a compact JWS, or undefined. */
function jsonSegment(segment: string | undefined): Record<string, unknown> | undefined {
  if (!segment || !/^[A-Za-z0-9_-]+$/.test(segment)) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The `jwt` key proofs of a credential request as sent: `proofs.jwt` (OpenID4VCI 1.0), or a
 * draft wallet's single `proof` of `proof_type` `jwt`. Other proof types are not looked at here.
 */
export function jwtProofsOf(request: unknown): unknown[] {
  if (!isObject(request)) return [];
  const found: unknown[] = [];
  const { proofs, proof } = request;
  if (isObject(proofs) && Array.isArray(proofs.jwt)) found.push(...(proofs.jwt as unknown[]));
  if (isObject(proof) && proof.proof_type === 'jwt') found.push(proof.jwt);
  return found;
}

/**
 * What a key proof must be before its signature, its key or its nonce is looked at, else
 * `invalid_proof` (OpenID4VCI 1.0 §8.3.1.2: an invalid key proof, or one without a c_nonce): a
 * compact JWS signed with one of PROOF_SIGNING_ALGS (an unsigned `alg: none` JWT is refused here,
 * not as a malformed request), whose payload names a `nonce`. Answers that nonce.
 */
export function proofNonce(jwt: unknown): string {
  if (typeof jwt !== 'string') throw invalidProof('A jwt proof is a compact JWT');
  const parts = jwt.split('.');
  const header = parts.length === 3 ? jsonSegment(parts[0]) : undefined;
  const payload = parts.length === 3 ? jsonSegment(parts[1]) : undefined;
  if (!header || !payload) throw invalidProof('The proof is not a JWT');
  const alg = header.alg;
  if (typeof alg !== 'string' || !(PROOF_SIGNING_ALGS as readonly string[]).includes(alg)) {
    throw invalidProof(
      `The proof must be signed with one of ${PROOF_SIGNING_ALGS.join(', ')} (alg ${JSON.stringify(alg ?? null)} is not accepted)`,
    );
  }
  if (!/^[A-Za-z0-9_-]+$/.test(parts[2] ?? '')) throw invalidProof('The proof has no signature');
  const nonce = payload.nonce;
  if (typeof nonce !== 'string' || nonce.length === 0) {
    throw invalidProof('The proof has no nonce: take a c_nonce from the nonce endpoint');
  }
  return nonce;
}

/** The `alg` of a proof's header (after proofNonce accepted it), or undefined. */
export function proofAlg(jwt: unknown): string | undefined {
  if (typeof jwt !== 'string') return undefined;
  const alg = jsonSegment(jwt.split('.')[0])?.alg;
  return typeof alg === 'string' ? alg : undefined;
}
