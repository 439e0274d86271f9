import { createHash, generateKeyPairSync, type KeyObject } from 'node:crypto';

/** A private signing JWK as JWT_SIGNING_KEYS holds it: its members, `kid`, `alg`, `use: sig`. */
export type PrivateSigningJwk = Record<string, string>;

/** RFC 7638: the SHA-256 of the required public members in lexicographic order, base64url. */
function thumbprint(members: Record<string, string>): string {
  const canonical = JSON.stringify(
    Object.fromEntries(
      Object.keys(members)
        .sort()
        .map((name) => [name, members[name]]),
    ),
  );
  return createHash('sha256').update(canonical).digest('base64url');
}

function privateJwk(key: KeyObject): Record<string, string> {
  return key.export({ format: 'jwk' }) as Record<string, string>;
}

/**
 * A new private EC P-256 JWK for ES256 (auth-service's platform JWTs and id_tokens), `kid` its
 * RFC 7638 thumbprint: the one generator of the dev secret, the deployment secrets, the test
 * stacks and rotation.
 */
export function newEcSigningJwk(): PrivateSigningJwk {
  const jwk = privateJwk(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey);
  const { kty, crv, x, y, d } = jwk as Record<'kty' | 'crv' | 'x' | 'y' | 'd', string>;
  return { kty, crv, x, y, d, kid: thumbprint({ crv, kty, x, y }), alg: 'ES256', use: 'sig' };
}

/** RS256 keys are 2048 bits or larger (RFC 7518 §3.3). */
export const RSA_SIGNING_MODULUS_BITS = 2048;

/** A new private RSA JWK (2048 bits) for RS256 id_tokens, `kid` its RFC 7638 thumbprint. */
export function newRsaSigningJwk(): PrivateSigningJwk {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: RSA_SIGNING_MODULUS_BITS });
  const jwk = privateJwk(privateKey);
  const members = ['n', 'e', 'd', 'p', 'q', 'dp', 'dq', 'qi'] as const;
  return {
    kty: 'RSA',
    ...Object.fromEntries(members.map((m) => [m, String(jwk[m])])),
    kid: thumbprint({ e: String(jwk.e), kty: 'RSA', n: String(jwk.n) }),
    alg: 'RS256',
    use: 'sig',
  };
}
