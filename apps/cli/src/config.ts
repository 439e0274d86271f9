/**
 * The CLI's configuration: global options over environment variables over defaults. The only
 * module that looks at environment variables (main.ts hands the environment in once).
 *
 *   --url    ITP_URL    the gateway's base URL (default http://localhost:<PORT>, `npm start`'s:
 *                       PORT as for npm start, 8080 unless set)
 *   --token  ITP_TOKEN  a JWT from `itp login`, for the commands that act for a user
 *            ITP_AUTH_ADMIN_CLI / ITP_DID_ADMIN_CLI  the auth-service / did-service operator CLI
 *            (a .js or .ts file) that `itp users|clients` / `itp kms|credentials` run, instead of
 *            the one found
 *            ITP_CHAIN_URL / ITP_DID_REGISTRY  the chain and ERC-1056 registry did:ethr DIDs are
 *            resolved against by `itp login approve --oid4vp` (its --chain-url / --registry)
 */
import { ConfigError } from './errors.js';

export type CliEnv = Readonly<Record<string, string | undefined>>;

const nonEmpty = (value: string | undefined): string | undefined =>
  value === undefined || value.trim() === '' ? undefined : value.trim();

/** The gateway of the dev stack (`npm start`, tools/dev: PORT defaults to 8080). */
export const DEFAULT_URL = 'http://localhost:8080';

/**
 * The dev stack's public URL on the PORT it was started with (`PORT=9090 npm start` →
 * `http://localhost:9090`, its PUBLIC_URL): the same PORT variable, so one setting moves both.
 */
export function defaultUrl(env: CliEnv): string {
  const port = nonEmpty(env.PORT);
  if (port === undefined) return DEFAULT_URL;
  const n = Number(port);
  if (!/^\d+$/.test(port) || n < 1 || n > 65535) {
    throw new ConfigError(`PORT must be a TCP port number (1-65535), got "${port}"`);
  }
  return `http://localhost:${n}`;
}

export interface CliSettings {
  /** Gateway base URL without a trailing slash. */
  url: string;
  token: string | undefined;
  json: boolean;
  authAdminCli: string | undefined;
  didAdminCli: string | undefined;
  /** ITP_CHAIN_URL: an Ethereum JSON-RPC URL for resolving did:ethr DIDs (login approve). */
  chainUrl: string | undefined;
  /** ITP_DID_REGISTRY: the ERC-1056 registry's address on that chain (login approve). */
  didRegistry: string | undefined;
  /**
   * Where relative file names given to itp are read from: the caller's directory. Under
   * `npm run itp -- …` npm runs itp in the repository root and names the caller's directory in
   * INIT_CWD; otherwise it is the process's working directory.
   */
  workDir: string;
}

export interface GlobalFlags {
  url?: string | undefined;
  token?: string | undefined;
  json?: boolean | undefined;
}

function gatewayUrl(raw: string, source: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${source} is not a URL: "${raw}" (e.g. ${DEFAULT_URL})`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`${source} must be an http(s) URL, got "${raw}"`);
  }
  if (url.search || url.hash) {
    throw new ConfigError(`${source} must be a base URL without ?query or #fragment`);
  }
  return url.toString().replace(/\/+$/, '');
}

export function resolveSettings(flags: GlobalFlags, env: CliEnv, cwd = '.'): CliSettings {
  const flagUrl = nonEmpty(flags.url);
  const envUrl = nonEmpty(env.ITP_URL);
  const url =
    flagUrl !== undefined
      ? gatewayUrl(flagUrl, '--url')
      : envUrl !== undefined
        ? gatewayUrl(envUrl, 'ITP_URL')
        : defaultUrl(env);
  return {
    url,
    token: nonEmpty(flags.token) ?? nonEmpty(env.ITP_TOKEN),
    json: flags.json === true,
    authAdminCli: nonEmpty(env.ITP_AUTH_ADMIN_CLI),
    didAdminCli: nonEmpty(env.ITP_DID_ADMIN_CLI),
    chainUrl: nonEmpty(env.ITP_CHAIN_URL),
    didRegistry: nonEmpty(env.ITP_DID_REGISTRY),
    workDir: nonEmpty(env.INIT_CWD) ?? cwd,
  };
}

/** The gateway URL for error messages, when the command line could not be parsed. */
export function urlForMessages(env: CliEnv): string {
  try {
    return resolveSettings({}, env).url;
  } catch {
    return env.ITP_URL ?? DEFAULT_URL;
  }
}
