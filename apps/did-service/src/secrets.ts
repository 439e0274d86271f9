import { randomBytes } from 'node:crypto';
import {
  resolveDeploymentSecret,
  internalTokensHeldBy,
  resolveInternalToken,
  type InternalTokenName,
  weakSecretIssues,
  weakSecretListIssues,
} from '@itp/crypto';
import { acceptedInternalApiTokens, ConfigError } from '@itp/service-kit';
import { kmsKeyIssues, parseKmsKey, parseKmsKeyList, type KmsKeys } from './agent/kms-keyring.js';
import type { DidConfig } from './config.js';

export interface DidSecrets {
  /**
   * The keys of the local KMS (service issuer / verifier keys at rest): DID_KMS_SECRET_KEY seals,
   * DID_KMS_PREVIOUS_SECRET_KEYS still open (agent/kms-keyring.ts).
   */
  kmsKeys: KmsKeys;
  /** The token sent to token-rpc's wallet API (INTERNAL_TOKEN_DID_TO_TOKEN_RPC). */
  tokenRpcToken: string;
  /** The token sent to auth-service's internal API (INTERNAL_TOKEN_DID_TO_AUTH). */
  authServiceToken: string;
  /**
   * Every token this service's internal API accepts: auth-service's
   * (INTERNAL_TOKEN_AUTH_TO_DID), then INTERNAL_API_ACCEPTED_TOKENS.
   */
  acceptedInternalApiTokens: string[];
}

type SecretConfig = Pick<
  DidConfig,
  | 'APP_ENV'
  | 'DATA_DIR'
  | 'DID_KMS_SECRET_KEY'
  | 'DID_KMS_PREVIOUS_SECRET_KEYS'
  | InternalTokenName
  | 'INTERNAL_API_ACCEPTED_TOKENS'
>;

/**
 * The deployment secrets. Outside development both are required and must be strong (a
 * ConfigError names what is missing or weak — a published value, all-same-byte key material, under
 * 128 bits — never the value). In development a missing one is read from, or generated once into,
 * DATA_DIR/secrets/ (mode 0600; @itp/crypto's resolveDeploymentSecret, shared by every service)
 * so that restarts keep the keys and the dev services agree. Every INTERNAL_API_ACCEPTED_TOKENS
 * entry is checked like the tokens (the internal API lets it in);
 * DID_KMS_PREVIOUS_SECRET_KEYS are not (as token-rpc's previous master keys: rotating away from a
 * weak key must stay possible), but no two keys may share an id.
 */
export function resolveSecrets(config: SecretConfig): DidSecrets {
  if (config.APP_ENV !== 'development') {
    const issues: string[] = [];
    if (!config.DID_KMS_SECRET_KEY) {
      issues.push(
        `DID_KMS_SECRET_KEY: required when APP_ENV=${config.APP_ENV} (32 bytes as 64 hex digits)`,
      );
    }
    for (const name of internalTokensHeldBy('did-service')) {
      if (!config[name]) {
        issues.push(`${name}: required when APP_ENV=${config.APP_ENV} (at least 32 characters)`);
      }
    }
    issues.push(
      ...weakSecretIssues({
        DID_KMS_SECRET_KEY: config.DID_KMS_SECRET_KEY,
        INTERNAL_TOKEN_DID_TO_TOKEN_RPC: config.INTERNAL_TOKEN_DID_TO_TOKEN_RPC,
        INTERNAL_TOKEN_DID_TO_AUTH: config.INTERNAL_TOKEN_DID_TO_AUTH,
        INTERNAL_TOKEN_AUTH_TO_DID: config.INTERNAL_TOKEN_AUTH_TO_DID,
      }),
      ...weakSecretListIssues('INTERNAL_API_ACCEPTED_TOKENS', config.INTERNAL_API_ACCEPTED_TOKENS),
    );
    if (issues.length > 0) throw new ConfigError(issues);
  }
  const kmsKeys = resolveKmsKeys(config);
  const token = (name: InternalTokenName): string => {
    const value = resolveInternalToken(config, name);
    if (!value) throw new ConfigError([`${name}: required`]);
    return value;
  };
  return {
    kmsKeys,
    tokenRpcToken: token('INTERNAL_TOKEN_DID_TO_TOKEN_RPC'),
    authServiceToken: token('INTERNAL_TOKEN_DID_TO_AUTH'),
    acceptedInternalApiTokens: acceptedInternalApiTokens(
      token('INTERNAL_TOKEN_AUTH_TO_DID'),
      config.INTERNAL_API_ACCEPTED_TOKENS,
    ),
  };
}

type KmsSecretConfig = Pick<
  DidConfig,
  'APP_ENV' | 'DATA_DIR' | 'DID_KMS_SECRET_KEY' | 'DID_KMS_PREVIOUS_SECRET_KEYS'
>;

/**
 * The local KMS's keys alone (the service and its CLI's `kms` commands): DID_KMS_SECRET_KEY
 * (required and strong outside development; in development DATA_DIR/secrets/did-kms-secret-key)
 * and DID_KMS_PREVIOUS_SECRET_KEYS, no two with one id.
 */
export function resolveKmsKeys(config: KmsSecretConfig): KmsKeys {
  if (config.APP_ENV !== 'development') {
    const issues = config.DID_KMS_SECRET_KEY
      ? weakSecretIssues({ DID_KMS_SECRET_KEY: config.DID_KMS_SECRET_KEY })
      : [`DID_KMS_SECRET_KEY: required when APP_ENV=${config.APP_ENV} (32 bytes as 64 hex digits)`];
    if (issues.length > 0) throw new ConfigError(issues);
  }
  const kmsSecretKey = resolveDeploymentSecret(
    config,
    config.DID_KMS_SECRET_KEY,
    'did-kms-secret-key',
    () => randomBytes(32).toString('hex'),
  );
  if (!kmsSecretKey) throw new ConfigError(['DID_KMS_SECRET_KEY: required']);
  const kmsKeys: KmsKeys = {
    current: parseKmsKey(kmsSecretKey),
    previous: parseKmsKeyList(config.DID_KMS_PREVIOUS_SECRET_KEYS),
  };
  const keyIssues = kmsKeyIssues(kmsKeys);
  if (keyIssues.length > 0) throw new ConfigError(keyIssues);
  return kmsKeys;
}
