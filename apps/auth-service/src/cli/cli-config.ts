import { z } from 'zod';
import { ConfigError, baseConfigShape, loadConfig, type Env } from '@itp/service-kit';
import { storeConfigShape } from '@itp/stores';

/** The CLI needs the database only: the same variables as the service. */
export const cliConfigSchema = z.object({
  APP_ENV: baseConfigShape.APP_ENV,
  DATABASE_URL: storeConfigShape.DATABASE_URL,
  DATA_DIR: storeConfigShape.DATA_DIR,
});

/**
 * DATABASE_URL; in development without it, the service's SQLite file in DATA_DIR. Anything but
 * development (production, test, …) requires DATABASE_URL.
 */
export function cliDatabaseUrl(env: Env): string {
  const config = loadConfig(cliConfigSchema, env);
  if (config.DATABASE_URL) return config.DATABASE_URL;
  if (config.APP_ENV === 'development') {
    return `sqlite:${config.DATA_DIR.replace(/\/+$/, '')}/auth-service.sqlite`;
  }
  throw new ConfigError([`DATABASE_URL: required when APP_ENV=${config.APP_ENV}`]);
}
