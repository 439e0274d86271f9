import { z } from 'zod';
import { baseConfigShape, loadConfig, type Env } from '@itp/service-kit';
import { resolveDatabaseUrl, storeConfigShape } from '@itp/stores';
import { kmsPreviousSecretKeysSetting, kmsSecretKeySetting } from '../config.js';

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
