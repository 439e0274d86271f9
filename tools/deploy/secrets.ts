/**
 * A fresh set of the deployment secrets, in the formats the services check at start
 * (docs/security.md): used by generate-env.ts and by the tests that start the images' contents.
 */
import { randomBytes } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, generateKeyPair } from 'jose';
import { newInternalTokens, type InternalTokens } from '@itp/crypto';

/** Besides the internal tokens (one per pair of services, @itp/crypto's INTERNAL_TOKENS): */
export interface DeploymentSecrets extends InternalTokens {
  /** token-rpc's wallet master key: `<id>:<base64 of 32 bytes>`; the id names it in rotations. */
  WALLET_MASTER_KEY: string;
  /**
   * did-service's key-store secret (its local KMS): `<id>:<64 hex digits>`; the id names it in
   * rotations (DID_KMS_PREVIOUS_SECRET_KEYS), as the wallet master key's.
   */
  DID_KMS_SECRET_KEY: string;
  /** auth-service's signing keys: a JSON array of private ES256 JWKs (the first one signs). */
  JWT_SIGNING_KEYS: string;
  /** PostgreSQL's password (compose): 24 bytes hex. */
  POSTGRES_PASSWORD: string;
}

/** One private ES256 JWK with its RFC 7638 thumbprint as `kid`, as auth-service expects it. */
/** A private RSA JWK (2048 bits, RS256) for the OpenID Connect provider's RS256 id_tokens. */
export async function newRsaSigningJwk(): Promise<Record<string, string>> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true, modulusLength: 2048 });
  const jwk = await exportJWK(privateKey);
  const kid = await calculateJwkThumbprint({ kty: 'RSA', n: jwk.n, e: jwk.e });
  const members = ['n', 'e', 'd', 'p', 'q', 'dp', 'dq', 'qi'] as const;
  return {
    kty: 'RSA',
    ...Object.fromEntries(members.map((m) => [m, String(jwk[m])])),
    kid,
    alg: 'RS256',
    use: 'sig',
  };
}

export async function newSigningJwk(): Promise<Record<string, string>> {
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const jwk = await exportJWK(privateKey);
  const kid = await calculateJwkThumbprint({ kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y });
  return {
    kty: String(jwk.kty),
    crv: String(jwk.crv),
    x: String(jwk.x),
    y: String(jwk.y),
    d: String(jwk.d),
    kid,
    alg: 'ES256',
    use: 'sig',
  };
}

/** A master-key id that says when it was made: `k20250131a1b2` (date + 2 random bytes). */
export function newMasterKeyId(now = new Date()): string {
  return `k${now.toISOString().slice(0, 10).replaceAll('-', '')}${randomBytes(2).toString('hex')}`;
}

export async function generateSecrets(): Promise<DeploymentSecrets> {
  return {
    ...newInternalTokens(),
    WALLET_MASTER_KEY: `${newMasterKeyId()}:${randomBytes(32).toString('base64')}`,
    DID_KMS_SECRET_KEY: `${newMasterKeyId()}:${randomBytes(32).toString('hex')}`,
    // EC (ES256: platform JWTs, id_tokens by default) and RSA (RS256 id_tokens, Discovery §3).
    JWT_SIGNING_KEYS: JSON.stringify([await newSigningJwk(), await newRsaSigningJwk()]),
    POSTGRES_PASSWORD: randomBytes(24).toString('hex'),
  };
}

/**
 * An env file docker-compose (python-dotenv) and `kubectl create secret --from-env-file` both
 * read: single-quoted where the value holds JSON (no interpolation inside single quotes).
 * kubectl keeps quotes literally, so `forKubectl` writes every value bare (none holds a newline).
 */
export function toEnvFile(
  secrets: DeploymentSecrets,
  options: { forKubectl?: boolean } = {},
): string {
  const lines = Object.entries(secrets).map(([name, value]) =>
    !options.forKubectl && /["'\s$#\\]/.test(value) ? `${name}='${value}'` : `${name}=${value}`,
  );
  return `${lines.join('\n')}\n`;
}
