import { z } from 'zod';
import { baseConfigShape, ConfigError, loadConfig, type Env } from '@itp/service-kit';
import { resolveDatabaseUrl, storeConfigShape } from '@itp/stores';
import { chainConfigShape } from '@itp/chain';
import { DEV_CHAIN } from '@itp/dev-chain/constants';
import { didNetworkSetting, kmsPreviousSecretKeysSetting, kmsSecretKeySetting } from '../config.js';

/** The CLI needs the database and the local KMS's keys only: the same variables as the service. */
export const cliConfigSchema = z.object({
  APP_ENV: baseConfigShape.APP_ENV,
  DATABASE_URL: storeConfigShape.DATABASE_URL,
  DATA_DIR: storeConfigShape.DATA_DIR,
  DID_KMS_SECRET_KEY: kmsSecretKeySetting,
  DID_KMS_PREVIOUS_SECRET_KEYS: kmsPreviousSecretKeysSetting,
});
export type CliConfig = z.infer<typeof cliConfigSchema>;

export function loadCliConfig(env: Env): CliConfig {
  return loadConfig(cliConfigSchema, env);
}

/** The service's database: DATABASE_URL, or in development its SQLite file in DATA_DIR. */
export function cliDatabaseUrl(config: CliConfig): string {
  return resolveDatabaseUrl(config, 'did-service');
}

/**
 * The `credentials` commands also resolve the issuer DIDs on the chain (to check a VC's
 * signature): the service's chain settings.
 */
export const credentialsCliConfigSchema = z.object({
  APP_ENV: baseConfigShape.APP_ENV,
  DATABASE_URL: storeConfigShape.DATABASE_URL,
  DATA_DIR: storeConfigShape.DATA_DIR,
  ...chainConfigShape,
  DID_NETWORK: didNetworkSetting,
});
export type CredentialsCliConfig = z.infer<typeof credentialsCliConfigSchema>;

export function loadCredentialsCliConfig(env: Env): CredentialsCliConfig {
  return loadConfig(credentialsCliConfigSchema, env);
}

/** DID_REGISTRY_ADDRESS; in development the dev chain's, as for the service. */
export function cliRegistryAddress(config: CredentialsCliConfig): string {
  if (config.DID_REGISTRY_ADDRESS) return config.DID_REGISTRY_ADDRESS;
  if (config.APP_ENV === 'development') return DEV_CHAIN.didRegistryAddress;
  throw new ConfigError([`DID_REGISTRY_ADDRESS: required when APP_ENV=${config.APP_ENV}`]);
}
