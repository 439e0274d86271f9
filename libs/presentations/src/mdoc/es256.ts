import { webcrypto } from 'node:crypto';

const ES256 = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const SIGN = { name: 'ECDSA', hash: 'SHA-256' } as const;

/** The public part of an EC JWK (no `d`, no `alg`/`key_ops` that would restrict the import). */
function publicPart(jwk: webcrypto.JsonWebKey): webcrypto.JsonWebKey {
  return { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y };
}

/**
 * Verifies an ES256 signature as COSE carries it: the raw r||s (64 bytes), which is also what
 * WebCrypto's ECDSA takes. False for a key that is not P-256 or a signature of another length.
 */
export async function verifyEs256(
  publicJwk: webcrypto.JsonWebKey,
  data: Uint8Array,
  signature: Uint8Array,
): Promise<boolean> {
  if (publicJwk.kty !== 'EC' || publicJwk.crv !== 'P-256' || signature.length !== 64) return false;
  const key = await webcrypto.subtle.importKey('jwk', publicPart(publicJwk), ES256, false, [
    'verify',
  ]);
  return webcrypto.subtle.verify(SIGN, key, signature, data);
}

/** Signs with a P-256 private JWK; the raw r||s COSE wants. */
export async function signEs256(
  privateJwk: webcrypto.JsonWebKey,
  data: Uint8Array,
): Promise<Uint8Array> {
  const { kty, crv, x, y, d } = privateJwk;
  const key = await webcrypto.subtle.importKey('jwk', { kty, crv, x, y, d }, ES256, false, [
    'sign',
  ]);
  return new Uint8Array(await webcrypto.subtle.sign(SIGN, key, data));
}
