import { z } from 'zod';
import { ConfigError, baseConfigShape, loadConfig, type Env } from '@itp/service-kit';
import { storeConfigShape } from '@itp/stores';
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

/**
 * DATABASE_URL; in development without it, the service's SQLite file in DATA_DIR. Anything but
 * development (production, test, …) requires DATABASE_URL.
 */
export function cliDatabaseUrl(config: CliConfig): string {
  if (config.DATABASE_URL) return config.DATABASE_URL;
  if (config.APP_ENV === 'development') {
    return `sqlite:${config.DATA_DIR.replace(/\/+$/, '')}/did-service.sqlite`;
  }
  throw new ConfigError([`DATABASE_URL: required when APP_ENV=${config.APP_ENV}`]);
}
