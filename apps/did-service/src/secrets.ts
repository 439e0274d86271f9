import { randomBytes } from 'node:crypto';
import { resolveDeploymentSecret, resolveInternalApiToken, weakSecretIssues } from '@itp/crypto';
import { ConfigError } from '@itp/service-kit';
import type { DidConfig } from './config.js';

export interface DidSecrets {
  /** 64 hex digits: the SecretBox key of the local KMS (service issuer / verifier keys). */
  kmsSecretKey: string;
  internalApiToken: string;
}

type SecretConfig = Pick<
  DidConfig,
  'APP_ENV' | 'DATA_DIR' | 'DID_KMS_SECRET_KEY' | 'INTERNAL_API_TOKEN'
>;

/**
 * The deployment secrets. Outside development both are required and must be strong (a
 * ConfigError names what is missing or weak — a published value, all-same-byte key material, under
 * 128 bits — never the value). In development a missing one is read from, or generated once into,
 * DATA_DIR/secrets/ (mode 0600; @itp/crypto's resolveDeploymentSecret, shared by every service)
 * so that restarts keep the keys and the dev services agree.
 */
export function resolveSecrets(config: SecretConfig): DidSecrets {
  if (config.APP_ENV !== 'development') {
    const issues: string[] = [];
    if (!config.DID_KMS_SECRET_KEY) {
      issues.push(
        `DID_KMS_SECRET_KEY: required when APP_ENV=${config.APP_ENV} (32 bytes as 64 hex digits)`,
      );
    }
    if (!config.INTERNAL_API_TOKEN) {
      issues.push(
        `INTERNAL_API_TOKEN: required when APP_ENV=${config.APP_ENV} (at least 32 characters)`,
      );
    }
    issues.push(
      ...weakSecretIssues({
        DID_KMS_SECRET_KEY: config.DID_KMS_SECRET_KEY,
        INTERNAL_API_TOKEN: config.INTERNAL_API_TOKEN,
      }),
    );
    if (issues.length > 0) throw new ConfigError(issues);
  }
  const kmsSecretKey = resolveDeploymentSecret(
    config,
    config.DID_KMS_SECRET_KEY,
    'did-kms-secret-key',
    () => randomBytes(32).toString('hex'),
  );
  const internalApiToken = resolveInternalApiToken(config);
  if (!kmsSecretKey || !internalApiToken) {
    throw new ConfigError(['DID_KMS_SECRET_KEY / INTERNAL_API_TOKEN: required']);
  }
  return { kmsSecretKey, internalApiToken };
}
