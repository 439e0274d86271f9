/**
 * The oidc scenario (8): a password login as a browser and a relying party make it, and what the
 * benchmark adds — the stack's auth-service environment and a registered client. The flow is
 * @itp/testing's (`oidc-password-flow`), on the jar's `request` (undici's request API, keep-alive
 * pools) instead of fetch: the load generator shares the measured cores, and fetch cost it ~5 ms
 * of CPU per flow (bench/README.md).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { runAuthCli } from '@itp/harness';
import type { OidcClient } from '@itp/testing/oidc-password-flow';

export {
  FLOW_STEPS,
  basicAuth,
  discover,
  expectRedirect,
  passwordFlow,
  formAction,
  jwtPayload,
  pkcePair,
  rebase,
  s256,
  type OidcClient,
  type OidcEndpoints,
} from '@itp/testing/oidc-password-flow';

/**
 * The environment of process `pid` (/proc/<pid>/environ; a process of this user). The stack's
 * auth-service has DATA_DIR, APP_ENV and, outside development, DATABASE_URL in it: what its
 * operator CLI needs to reach the same database.
 */
export function environmentOf(pid: number): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0')) {
    const eq = line.indexOf('=');
    if (eq > 0) env[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return env;
}

/**
 * Registers a relying party with redirect URI `redirectUri` in the stack's auth-service the way an
 * operator does: auth-service's CLI (`clients add … --redirect-uri …`), pointed at the service's
 * database (its APP_ENV, DATA_DIR and DATABASE_URL). The secret is random and given on stdin.
 */
export async function addOidcClient(
  authEnv: Record<string, string>,
  redirectUri: string,
): Promise<OidcClient> {
  const id = `bench-oidc-${randomBytes(4).toString('hex')}`;
  const secret = randomBytes(24).toString('base64url');
  const prefix = `${new URL(redirectUri).origin}/`;
  const env: { APP_ENV?: string; DATA_DIR?: string; DATABASE_URL?: string } = {};
  for (const name of ['APP_ENV', 'DATA_DIR', 'DATABASE_URL'] as const) {
    if (authEnv[name]) env[name] = authEnv[name];
  }
  const args = ['clients', 'add', id, '--name', 'Benchmark site', '--prefix', prefix];
  args.push('--redirect-uri', redirectUri, '--secret-stdin');
  await runAuthCli(args, env, `${secret}\n`);
  return { id, secret, redirectUri };
}
