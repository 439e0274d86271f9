import { webcrypto } from 'node:crypto';

/** A public EC P-256 JWK imported for `verifyEs256`, or undefined when `jwk` is not one. */
export async function importEs256PublicJwk(jwk: unknown): Promise<webcrypto.CryptoKey | undefined> {
  if (typeof jwk !== 'object' || jwk === null) return undefined;
  const { kty, crv, x, y } = jwk as Record<string, unknown>;
  if (kty !== 'EC' || crv !== 'P-256' || typeof x !== 'string' || typeof y !== 'string')
    return undefined;
  try {
    return await webcrypto.subtle.importKey(
      'jwk',
      { kty, crv, x, y },
      { name: 'ECDSA', namedCurve: 'P-256' },
      true,
      ['verify'],
    );
  } catch {
    return undefined;
  }
}
