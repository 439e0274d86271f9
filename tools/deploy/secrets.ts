/**
 * A fresh set of the deployment secrets, in the formats the services check at start
 * (docs/security.md): used by generate-env.ts and by the tests that start the images' contents.
 */
import { randomBytes } from 'node:crypto';
import {
  newEcSigningJwk,
  newInternalTokens,
  newRsaSigningJwk,
  type InternalTokens,
} from '@itp/crypto';

/** Besides the internal tokens (one per pair of services, @itp/crypto's INTERNAL_TOKENS): */
export interface DeploymentSecrets extends InternalTokens {
  /** token-rpc's wallet master key: `<id>:<base64 of 32 bytes>`; the id names it in rotations. */
  WALLET_MASTER_KEY: string;
  /**
   * did-service's key-store secret (its local KMS): `<id>:<64 hex digits>`; the id names it in
   * rotations (DID_KMS_PREVIOUS_SECRET_KEYS), as the wallet master key's.
   */
  DID_KMS_SECRET_KEY: string;
  /**
   * auth-service's signing keys: a JSON array of private JWKs, an ES256 and an RS256 one (the
   * first of each kind signs).
   */
  JWT_SIGNING_KEYS: string;
  /** PostgreSQL's password (compose): 24 bytes hex. */
  POSTGRES_PASSWORD: string;
}

/** A master-key id that says when it was made: `k20250131a1b2` (date + 2 random bytes). */
export function newMasterKeyId(now = new Date()): string {
  return `k${now.toISOString().slice(0, 10).replaceAll('-', '')}${randomBytes(2).toString('hex')}`;
}

/** A fresh set of the deployment secrets (each in the format its service checks at start). */
export async function generateSecrets(): Promise<DeploymentSecrets> {
  return {
    ...newInternalTokens(),
    WALLET_MASTER_KEY: `${newMasterKeyId()}:${randomBytes(32).toString('base64')}`,
    DID_KMS_SECRET_KEY: `${newMasterKeyId()}:${randomBytes(32).toString('hex')}`,
    // EC (ES256: platform JWTs, id_tokens by default) and RSA (RS256 id_tokens, Discovery §3).
    JWT_SIGNING_KEYS: JSON.stringify([newEcSigningJwk(), newRsaSigningJwk()]),
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
