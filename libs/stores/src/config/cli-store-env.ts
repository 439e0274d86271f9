import { existsSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { ConfigError, type Env } from '@itp/service-kit';

export interface CliStoreEnvOptions {
  /** The operator's working directory (under `npm run … -w <app>`, npm's INIT_CWD wins). */
  cwd: string;
  /**
   * Folders to look above as well, e.g. the CLI module's own: a CLI run from outside the
   * repository (an installed `itp`) still finds the repository's dev stack.
   */
  searchFrom?: readonly string[];
}

const HOW_TO_POINT =
  "set DATABASE_URL (a deployment's database), or APP_ENV=development and DATA_DIR=<the dev " +
  "stack's data folder> (npm start's: <repository>/data, or the DATA_DIR it was started with)";

const set = (value: string | undefined): string | undefined =>
  value === undefined || value.trim() === '' ? undefined : value.trim();

/** `dir` and every folder above it. */
function ancestors(dir: string): string[] {
  const out: string[] = [];
  for (let d = resolve(dir); ; d = dirname(d)) {
    out.push(d);
    if (dirname(d) === d) return out;
  }
}

/**
 * The environment an operator CLI opens `service`'s database with. DATABASE_URL is taken as given;
 * an APP_ENV other than development without it is refused, saying how to point at a database
 * (a deployment: DATABASE_URL is required). Otherwise
 * the CLI looks for a dev stack's data folder holding `<service>.sqlite` (`npm start` keeps it in
 * `<repository>/data`): DATA_DIR when given (relative to the operator's folder), else `data/` in
 * the operator's folder or any folder above it (the repository root and its app folders alike),
 * else above `searchFrom`. Found: development on that folder (an absolute DATA_DIR). Not found:
 * a ConfigError saying how to point at the database (APP_ENV=development keeps DATA_DIR, and the
 * caller's own check names the missing file).
 */
export function cliStoreEnv(env: Env, service: string, options: CliStoreEnvOptions): Env {
  const appEnv = set(env.APP_ENV);
  if (set(env.DATABASE_URL)) return env;
  if (appEnv !== undefined && appEnv !== 'development') {
    throw new ConfigError([
      `DATABASE_URL: required when APP_ENV=${appEnv} (postgres://, postgresql:// or sqlite: URL)`,
      HOW_TO_POINT,
    ]);
  }
  const base = set(env.INIT_CWD) ?? options.cwd;
  const file = `${service}.sqlite`;
  const given = set(env.DATA_DIR);
  const candidates = given
    ? [isAbsolute(given) ? given : resolve(base, given)]
    : [...new Set([base, ...(options.searchFrom ?? [])].flatMap(ancestors))].map((dir) =>
        resolve(dir, 'data'),
      );
  const found = candidates.find((dir) => existsSync(resolve(dir, file)));
  if (found) return { ...env, APP_ENV: 'development', DATA_DIR: found };
  if (appEnv === 'development') return given ? { ...env, DATA_DIR: candidates[0] } : env;
  throw new ConfigError([
    given
      ? `no ${service} database in DATA_DIR=${candidates[0]} (no ${file} there)`
      : `no ${service} database found: no dev stack data folder (data/${file}) in ${base} or above`,
    HOW_TO_POINT,
  ]);
}
