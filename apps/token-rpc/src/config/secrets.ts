import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import {
  Keyring,
  loadOrCreateDevMasterKey,
  loadOrCreateDevSecret,
  parseMasterKey,
} from '@itp/crypto';
import { ConfigError } from '@itp/service-kit';
import type { TokenConfig } from '../config.js';

export interface TokenSecrets {
  keyring: Keyring;
  internalApiToken: string;
}

type SecretConfig = Pick<
  TokenConfig,
  | 'APP_ENV'
  | 'DATA_DIR'
  | 'WALLET_MASTER_KEY'
  | 'WALLET_PREVIOUS_MASTER_KEYS'
  | 'INTERNAL_API_TOKEN'
>;

/**
 * The wallet's Keyring and the internal API token. Outside development both come from the
 * environment (the config schema refuses to load without them). In development a missing one is
 * read from DATA_DIR/secrets/ or generated there once (mode 0600), so that restarts keep the
 * wallet readable and the services of the dev stack agree on the internal token.
 */
export function resolveSecrets(config: SecretConfig): TokenSecrets {
  const dev = config.APP_ENV === 'development';
  const secretsDir = join(config.DATA_DIR, 'secrets');
  const missing: string[] = [];
  if (!dev && !config.WALLET_MASTER_KEY)
    missing.push('WALLET_MASTER_KEY: required (a deployment secret)');
  if (!dev && !config.INTERNAL_API_TOKEN)
    missing.push('INTERNAL_API_TOKEN: required (a deployment secret)');
  if (missing.length > 0) throw new ConfigError(missing);

  const current = config.WALLET_MASTER_KEY
    ? parseMasterKey(config.WALLET_MASTER_KEY)
    : loadOrCreateDevMasterKey(join(secretsDir, 'wallet-master.key'));
  const previous = (config.WALLET_PREVIOUS_MASTER_KEYS ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter((k) => k.length > 0)
    .map(parseMasterKey);
  const internalApiToken =
    config.INTERNAL_API_TOKEN ?? loadOrCreateDevToken(join(secretsDir, 'internal-api-token'));
  return { keyring: new Keyring(current, previous), internalApiToken };
}

/**
 * Development only: a random token kept in `file`. Created atomically (written to a temporary
 * file, then hard-linked into place, which fails when another process was first), so that two
 * services starting together end up with the same value.
 */
export function loadOrCreateDevToken(file: string): string {
  return loadOrCreateDevSecret(file, () => randomBytes(32).toString('base64url'));
}
