import { z } from 'zod';
import { existsSync } from 'node:fs';
import { ConfigError, baseConfigShape, loadConfig, type Env } from '@itp/service-kit';
import { resolveDatabaseUrl, storeConfigShape } from '@itp/stores';

/** The CLI needs the database only: the same variables as the service. */
export const cliConfigSchema = z.object({
  APP_ENV: baseConfigShape.APP_ENV,
  DATABASE_URL: storeConfigShape.DATABASE_URL,
  DATA_DIR: storeConfigShape.DATA_DIR,
});

/**
 * The service's database: DATABASE_URL, or in development its SQLite file in DATA_DIR. A SQLite
 * file that does not exist is refused (ConfigError, exit 2) instead of created empty: an
 * operator listing users with the wrong DATA_DIR must see the mistake, not an empty list (and an
 * empty database beside the real one).
 */
export function cliDatabaseUrl(env: Env): string {
  const url = resolveDatabaseUrl(loadConfig(cliConfigSchema, env), 'auth-service');
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length).replace(/^\/\//, '');
    if (file !== ':memory:' && !existsSync(file)) {
      throw new ConfigError([
        `no auth-service database at ${file}: start the service once (npm start creates it), ` +
          'or point DATA_DIR / DATABASE_URL at the one it uses',
      ]);
    }
  }
  return url;
}
