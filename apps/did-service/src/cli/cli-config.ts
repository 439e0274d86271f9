import { z } from 'zod';
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  baseConfigShape,
  ConfigError,
  loadConfig,
  publicUrlSetting,
  type Env,
} from '@itp/service-kit';
import { cliStoreEnv, resolveDatabaseUrl, storeConfigShape } from '@itp/stores';
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

/** This module's folder: in the repository, the dev stack's `data/` is found above it. */
const HERE = dirname(fileURLToPath(import.meta.url));

/** Where the operator runs the CLI from, and where else the dev stack's data is looked for. */
export interface CliPlace {
  cwd?: string | undefined;
  searchFrom?: readonly string[];
}

/**
 * The environment with the database located: DATABASE_URL, or without it (and without APP_ENV)
 * the dev stack's data folder (`data/did-service.sqlite` in the operator's folder or above, or
 * above this CLI: the repository root and the app folder alike) means development there, with
 * its DATA_DIR (the dev KMS key is kept there too); none found is a ConfigError saying how to
 * point at it (cliStoreEnv).
 */
function locate(env: Env, place: CliPlace): Env {
  return cliStoreEnv(env, 'did-service', {
    cwd: place.cwd ?? process.cwd(),
    searchFrom: place.searchFrom ?? [HERE],
  });
}

export function loadCliConfig(env: Env, place: CliPlace = {}): CliConfig {
  return loadConfig(cliConfigSchema, locate(env, place));
}

/**
 * The service's database: DATABASE_URL, or in development its SQLite file in DATA_DIR. A SQLite
 * file that does not exist is refused (ConfigError, exit 2) instead of created empty: the wrong
 * DATA_DIR must show, not an empty key store.
 */
export function cliDatabaseUrl(
  config: Pick<CliConfig, 'APP_ENV' | 'DATABASE_URL' | 'DATA_DIR'>,
): string {
  const url = resolveDatabaseUrl(config, 'did-service');
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length).replace(/^\/\//, '');
    if (file !== ':memory:' && !existsSync(file)) {
      throw new ConfigError([
        `no did-service database at ${file}: start the service once (npm start creates it), ` +
          'or point DATA_DIR / DATABASE_URL at the one it uses',
      ]);
    }
  }
  return url;
}

/**
 * The `sd-jwt-issuer` commands also need PUBLIC_URL: the issuer leaf's SAN must name its host,
 * and the did:web is made from it.
 */
export const sdJwtIssuerCliConfigSchema = cliConfigSchema.extend({ PUBLIC_URL: publicUrlSetting });
export type SdJwtIssuerCliConfig = z.infer<typeof sdJwtIssuerCliConfigSchema>;

export function loadSdJwtIssuerCliConfig(env: Env, place: CliPlace = {}): SdJwtIssuerCliConfig {
  return loadConfig(sdJwtIssuerCliConfigSchema, locate(env, place));
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

export function loadCredentialsCliConfig(env: Env, place: CliPlace = {}): CredentialsCliConfig {
  return loadConfig(credentialsCliConfigSchema, locate(env, place));
}

/** DID_REGISTRY_ADDRESS; in development the dev chain's, as for the service. */
export function cliRegistryAddress(config: CredentialsCliConfig): string {
  if (config.DID_REGISTRY_ADDRESS) return config.DID_REGISTRY_ADDRESS;
  if (config.APP_ENV === 'development') return DEV_CHAIN.didRegistryAddress;
  throw new ConfigError([`DID_REGISTRY_ADDRESS: required when APP_ENV=${config.APP_ENV}`]);
}
