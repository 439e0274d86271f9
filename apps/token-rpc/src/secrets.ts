import { randomBytes } from 'node:crypto';
import {
  Keyring,
  parseMasterKey,
  resolveDeploymentSecret,
  resolveInternalToken,
  weakSecretIssues,
  weakSecretListIssues,
} from '@itp/crypto';
import { acceptedInternalApiTokens, ConfigError } from '@itp/service-kit';
import type { TokenConfig } from './config.js';

export interface TokenSecrets {
  keyring: Keyring;
  /** The token of the internal API's one caller, did-service (INTERNAL_TOKEN_DID_TO_TOKEN_RPC). */
  callerToken: string;
  /** Every token its internal API accepts: callerToken, then INTERNAL_API_ACCEPTED_TOKENS. */
  acceptedInternalApiTokens: string[];
}

type SecretConfig = Pick<
  TokenConfig,
  | 'APP_ENV'
  | 'DATA_DIR'
  | 'WALLET_MASTER_KEY'
  | 'WALLET_PREVIOUS_MASTER_KEYS'
  | 'INTERNAL_TOKEN_DID_TO_TOKEN_RPC'
  | 'INTERNAL_API_ACCEPTED_TOKENS'
>;

/**
 * The wallet's Keyring and the internal API token. Outside development (`production` and `test`
 * alike) both come from the environment (the config schema refuses to load without them) and a
 * weak one is refused (docs/api.md §1: a value published in this repository, key material of one
 * repeated byte, fewer than 128 bits of estimated entropy); the error names the variable, never
 * the value. WALLET_PREVIOUS_MASTER_KEYS are not checked: rotating away from a weak key must stay
 * possible. Every INTERNAL_API_ACCEPTED_TOKENS entry is checked like INTERNAL_TOKEN_DID_TO_TOKEN_RPC: the
 * internal API lets it in. In development a missing one is
 * read from DATA_DIR/secrets/ or generated there once (mode 0600), so that restarts keep the
 * wallet readable and the services of the dev stack agree on the internal token.
 */
export function resolveSecrets(config: SecretConfig): TokenSecrets {
  const dev = config.APP_ENV === 'development';
  const missing: string[] = [];
  if (!dev && !config.WALLET_MASTER_KEY)
    missing.push('WALLET_MASTER_KEY: required (a deployment secret)');
  if (!dev && !config.INTERNAL_TOKEN_DID_TO_TOKEN_RPC)
    missing.push('INTERNAL_TOKEN_DID_TO_TOKEN_RPC: required (a deployment secret)');
  if (missing.length > 0) throw new ConfigError(missing);
  if (!dev) {
    const weak = weakSecretIssues({
      WALLET_MASTER_KEY: config.WALLET_MASTER_KEY,
      INTERNAL_TOKEN_DID_TO_TOKEN_RPC: config.INTERNAL_TOKEN_DID_TO_TOKEN_RPC,
    }).concat(
      weakSecretListIssues('INTERNAL_API_ACCEPTED_TOKENS', config.INTERNAL_API_ACCEPTED_TOKENS),
    );
    if (weak.length > 0) throw new ConfigError(weak);
  }

  // Both are set outside development (checked above); in development a missing one comes from
  // DATA_DIR/secrets/ (generated there once).
  const masterKey = resolveDeploymentSecret(
    config,
    config.WALLET_MASTER_KEY,
    'wallet-master.key',
    () => `dev1:${randomBytes(32).toString('base64')}`,
  );
  const callerToken = resolveInternalToken(config, 'INTERNAL_TOKEN_DID_TO_TOKEN_RPC');
  if (masterKey === undefined || callerToken === undefined) {
    throw new ConfigError([
      'WALLET_MASTER_KEY / INTERNAL_TOKEN_DID_TO_TOKEN_RPC: required (deployment secrets)',
    ]);
  }
  const previous = (config.WALLET_PREVIOUS_MASTER_KEYS ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter((k) => k.length > 0)
    .map(parseMasterKey);
  return {
    keyring: new Keyring(parseMasterKey(masterKey), previous),
    callerToken,
    acceptedInternalApiTokens: acceptedInternalApiTokens(
      callerToken,
      config.INTERNAL_API_ACCEPTED_TOKENS,
    ),
  };
}
