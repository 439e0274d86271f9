import { calculateJwkThumbprint, importJWK, type CryptoKey, type JWK } from 'jose';
import { newEcSigningJwk, newRsaSigningJwk, RSA_SIGNING_MODULUS_BITS } from '@itp/crypto';
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
 * The keys of a parsed JWT_SIGNING_KEYS value: a JSON array, or `{ "keys": [...] }`; undefined
 * when it is neither. The one reading of the secret's shape (parsing, dev keys, strength checks).
 */
export function signingKeyEntries(parsed: unknown): unknown[] | undefined {
  const list: unknown = Array.isArray(parsed)
    ? parsed
    : (parsed as { keys?: unknown } | null)?.keys;
  return Array.isArray(list) ? list : undefined;
}

/** The RSA members of a private JWK (RFC 7518 §6.3.2): all present for signing. */
const RSA_PRIVATE_MEMBERS = ['n', 'e', 'd', 'p', 'q', 'dp', 'dq', 'qi'] as const;

/** RS256 keys shorter than this are refused (RFC 7518 §3.3: 2048 bits or larger). */
export const MIN_RSA_MODULUS_BITS = RSA_SIGNING_MODULUS_BITS;

function isPrivateRsaJwk(
  value: unknown,
): value is JWK & Record<(typeof RSA_PRIVATE_MEMBERS)[number], string> {
  const jwk = value as Record<string, unknown> | null;
  return (
    typeof jwk === 'object' &&
    jwk !== null &&
    jwk.kty === 'RSA' &&
    RSA_PRIVATE_MEMBERS.every((m) => typeof jwk[m] === 'string' && B64URL.test(jwk[m] as string)) &&
    (jwk.alg === undefined || jwk.alg === 'RS256') &&
    (jwk.kid === undefined || (typeof jwk.kid === 'string' && KID.test(jwk.kid)))
  );
}

/** The modulus length in bits of a base64url `n` (leading zero bits not counted). */
function modulusBits(n: string): number {
  const bytes = Buffer.from(n, 'base64url');
  const first = bytes.findIndex((b) => b !== 0);
  if (first < 0) return 0;
  return (bytes.length - first - 1) * 8 + (32 - Math.clz32(bytes[first]!));
}

/**
 * The signing keys secret read in full: the EC P-256 keys (ES256: platform JWTs and the OpenID
 * Connect provider's default id_tokens) and the RSA keys (RS256: id_tokens for the relying
 * parties registered with `--id-token-signing-alg RS256`; OpenID Connect Discovery §3 requires
 * RS256 support). Each kind rotates the same way: the first key of the kind signs, every key is
 * published.
 */
export interface SigningKeySet {
  keys: SigningKey[];
  /** Private RSA JWKs (kid, alg RS256, use sig) for the OpenID Connect provider; may be empty. */
  rsaKeys: JWK[];
}

/**
 * Reads the signing keys secret: a JSON array of private EC P-256 JWKs (`{ "keys": [...] }` is
 * accepted too). The first key signs; every key is published in the JWKS, so a key that was
 * current before a rotation keeps verifying until its tokens expired. A key without `kid` gets
 * its RFC 7638 thumbprint. Error messages never include key material. Private RSA JWKs (RS256,
 * at least 2048 bits) may stand in the same array: they are kept apart (`parseSigningKeySet`)
 * for the OpenID Connect provider and never sign platform JWTs.
 */
export async function parseSigningKeys(json: string): Promise<SigningKey[]> {
  return (await parseSigningKeySet(json)).keys;
}

/** Reads the signing keys secret into its EC and RSA keys (see parseSigningKeys). */
export async function parseSigningKeySet(json: string): Promise<SigningKeySet> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new SigningKeysError('is not valid JSON');
  }
  const list = signingKeyEntries(parsed);
  if (!list || list.length === 0) {
    throw new SigningKeysError('must be a non-empty JSON array of private EC P-256 JWKs');
  }
  const keys: SigningKey[] = [];
  const rsaKeys: JWK[] = [];
  const kids = new Set<string>();
  for (const [index, jwk] of list.entries()) {
    if (isPrivateRsaJwk(jwk)) {
      const rsa = await readRsaKey(jwk, index);
      if (kids.has(rsa.kid!)) throw new SigningKeysError(`duplicate kid ${rsa.kid}`);
      kids.add(rsa.kid!);
      rsaKeys.push(rsa);
      continue;
    }
    if (!isPrivateEcJwk(jwk)) {
      throw new SigningKeysError(
        `key #${index} is not a private EC P-256 JWK (kty EC, crv P-256, x, y, d; alg ES256 if set) nor a private RSA JWK (kty RSA, n, e, d, p, q, dp, dq, qi; alg RS256 if set)`,
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
    if (kids.has(kid)) throw new SigningKeysError(`duplicate kid ${kid}`);
    kids.add(kid);
    keys.push({
      kid,
      privateKey,
      publicJwk: { kty: 'EC', crv: 'P-256', x, y, kid, alg: 'ES256', use: 'sig' },
      privateJwk: { kty: 'EC', crv: 'P-256', x, y, d, kid, alg: 'ES256', use: 'sig' },
    });
  }
  if (keys.length === 0) {
    throw new SigningKeysError(
      'needs at least one private EC P-256 JWK (ES256 signs platform JWTs)',
    );
  }
  return { keys, rsaKeys };
}

async function readRsaKey(
  jwk: JWK & Record<(typeof RSA_PRIVATE_MEMBERS)[number], string>,
  index: number,
): Promise<JWK> {
  const kid = jwk.kid ?? (await calculateJwkThumbprint({ kty: 'RSA', n: jwk.n, e: jwk.e }));
  const bits = modulusBits(jwk.n);
  if (bits < MIN_RSA_MODULUS_BITS) {
    throw new SigningKeysError(
      `key #${index} (kid ${kid}) is an RSA key of ${bits} bits: RS256 needs at least ${MIN_RSA_MODULUS_BITS}`,
    );
  }
  const members = Object.fromEntries(RSA_PRIVATE_MEMBERS.map((m) => [m, jwk[m]]));
  try {
    await importJWK({ kty: 'RSA', ...members }, 'RS256');
  } catch {
    throw new SigningKeysError(`key #${index} (kid ${kid}) could not be imported`);
  }
  return { kty: 'RSA', ...members, kid, alg: 'RS256', use: 'sig' };
}

/**
 * A new private signing JWK (kid = RFC 7638 thumbprint), e.g. for the dev secret or rotation
 * (@itp/crypto's one generator).
 */
export async function generateSigningJwk(): Promise<JWK> {
  return newEcSigningJwk();
}

/** A new private RSA signing JWK (2048 bits, kid = RFC 7638 thumbprint) for RS256 id_tokens. */
export async function generateRsaSigningJwk(): Promise<JWK> {
  return newRsaSigningJwk();
}
