import { z } from 'zod';
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, baseConfigShape, loadConfig, type Env } from '@itp/service-kit';
import { cliStoreEnv, resolveDatabaseUrl, storeConfigShape } from '@itp/stores';

/** The CLI needs the database only: the same variables as the service. */
export const cliConfigSchema = z.object({
  APP_ENV: baseConfigShape.APP_ENV,
  DATABASE_URL: storeConfigShape.DATABASE_URL,
  DATA_DIR: storeConfigShape.DATA_DIR,
});

/** This module's folder: in the repository, the dev stack's `data/` is found above it. */
const HERE = dirname(fileURLToPath(import.meta.url));

/**
 * The service's database: DATABASE_URL, or in development its SQLite file in DATA_DIR. Without
 * either (and without APP_ENV), the dev stack's data folder (`data/auth-service.sqlite` in the
 * operator's folder or above, or above this CLI: the repository root and the app folder alike)
 * means development there (cliStoreEnv); none found is a ConfigError saying how to point at it.
 * A SQLite file that does not exist is refused (ConfigError, exit 2) instead of created empty: an
 * operator listing users with the wrong DATA_DIR must see the mistake, not an empty list (and an
 * empty database beside the real one).
 */
export function cliDatabaseUrl(
  env: Env,
  cwd: string = process.cwd(),
  searchFrom: readonly string[] = [HERE],
): string {
  const located = cliStoreEnv(env, 'auth-service', { cwd, searchFrom });
  const url = resolveDatabaseUrl(loadConfig(cliConfigSchema, located), 'auth-service');
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
