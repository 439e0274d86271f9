import { z } from 'zod';
import { baseConfigShape, loadConfig, type Env } from '@itp/service-kit';
import { resolveDatabaseUrl, storeConfigShape } from '@itp/stores';

/** The CLI needs the database only: the same variables as the service. */
export const cliConfigSchema = z.object({
  APP_ENV: baseConfigShape.APP_ENV,
  DATABASE_URL: storeConfigShape.DATABASE_URL,
  DATA_DIR: storeConfigShape.DATA_DIR,
});

/** The service's database: DATABASE_URL, or in development its SQLite file in DATA_DIR. */
export function cliDatabaseUrl(env: Env): string {
  return resolveDatabaseUrl(loadConfig(cliConfigSchema, env), 'auth-service');
}
