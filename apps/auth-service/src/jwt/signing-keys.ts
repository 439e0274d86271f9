import {
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  importJWK,
  type CryptoKey,
  type JWK,
} from 'jose';
import type { PublicSigningJwk } from '@itp/schemas';

/** One ES256 signing key: the private key for signing, its public JWK for the JWKS. */
export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: PublicSigningJwk;
  /**
   * The private JWK (kid, alg ES256, use sig) for the OpenID Connect provider, which signs its
   * id_tokens with the same keys. Secret: never logged or returned.
   */
  privateJwk: JWK;
}

/** Thrown for an unusable JWT_SIGNING_KEYS value; never contains key material. */
export class SigningKeysError extends Error {
  constructor(message: string) {
    super(`JWT_SIGNING_KEYS: ${message}`);
    this.name = 'SigningKeysError';
  }
}

const B64URL = /^[A-Za-z0-9_-]+$/;
const KID = /^[A-Za-z0-9._:-]{1,128}$/;

function isPrivateEcJwk(value: unknown): value is JWK & { x: string; y: string; d: string } {
  const jwk = value as Record<string, unknown> | null;
  return (
    typeof jwk === 'object' &&
    jwk !== null &&
    jwk.kty === 'EC' &&
    jwk.crv === 'P-256' &&
    [jwk.x, jwk.y, jwk.d].every((v) => typeof v === 'string' && B64URL.test(v)) &&
    (jwk.alg === undefined || jwk.alg === 'ES256') &&
    (jwk.kid === undefined || (typeof jwk.kid === 'string' && KID.test(jwk.kid)))
  );
}

/**
 * Reads the signing keys secret: a JSON array of private EC P-256 JWKs (`{ "keys": [...] }` is
 * accepted too). The first key signs; every key is published in the JWKS, so a key that was
 * current before a rotation keeps verifying until its tokens expired. A key without `kid` gets
 * its RFC 7638 thumbprint. Error messages never include key material.
 */
export async function parseSigningKeys(json: string): Promise<SigningKey[]> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new SigningKeysError('is not valid JSON');
  }
  const list: unknown = Array.isArray(parsed) ? parsed : (parsed as { keys?: unknown })?.keys;
  if (!Array.isArray(list) || list.length === 0) {
    throw new SigningKeysError('must be a non-empty JSON array of private EC P-256 JWKs');
  }
  const keys: SigningKey[] = [];
  for (const [index, jwk] of list.entries()) {
    if (!isPrivateEcJwk(jwk)) {
      throw new SigningKeysError(
        `key #${index} is not a private EC P-256 JWK (kty EC, crv P-256, x, y, d; alg ES256 if set)`,
      );
    }
    const { kty, crv, x, y, d } = jwk;
    const kid = jwk.kid ?? (await calculateJwkThumbprint({ kty, crv, x, y }));
    let privateKey: CryptoKey;
    try {
      privateKey = (await importJWK({ kty, crv, x, y, d }, 'ES256')) as CryptoKey;
    } catch {
      throw new SigningKeysError(`key #${index} (kid ${kid}) could not be imported`);
    }
    if (keys.some((k) => k.kid === kid)) throw new SigningKeysError(`duplicate kid ${kid}`);
    keys.push({
      kid,
      privateKey,
      publicJwk: { kty: 'EC', crv: 'P-256', x, y, kid, alg: 'ES256', use: 'sig' },
      privateJwk: { kty: 'EC', crv: 'P-256', x, y, d, kid, alg: 'ES256', use: 'sig' },
    });
  }
  return keys;
}

/** A new private signing JWK (kid = RFC 7638 thumbprint), e.g. for the dev secret or rotation. */
export async function generateSigningJwk(): Promise<JWK> {
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const jwk = await exportJWK(privateKey);
  const kid = await calculateJwkThumbprint({ kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y });
  return {
    kty: jwk.kty,
    crv: jwk.crv,
    x: jwk.x,
    y: jwk.y,
    d: jwk.d,
    kid,
    alg: 'ES256',
    use: 'sig',
  };
}
