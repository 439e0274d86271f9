import type { ClientAdmin } from '../clients/client-admin.js';
import type { UserAdmin } from '../users/user-admin.js';

/** docs/api.md §1: the demo user and relying party of development mode. */
export const DEMO_USER = {
  id: 'demo',
  password: 'demo-password',
  name: 'Demo User',
  email: 'demo@example.com',
  telNo: null,
} as const;

export const DEMO_CLIENT = {
  id: 'demo-site',
  secret: 'demo-site-secret',
  name: 'Demo site',
} as const;

/**
 * The prefix the demo client has always had and the README's examples and the end-to-end suites
 * send, whatever port the stack runs on: kept beside the ones that follow PORT.
 */
export const DEMO_DOCUMENTED_PREFIX = 'http://localhost:8080/';

/**
 * The demo client's requestId prefixes: `<PUBLIC_URL>/` (the gateway's demo site sends
 * `<PUBLIC_URL>/demo?`), the same port by `localhost` and by `127.0.0.1`, so QR login works on
 * whatever PORT the dev stack runs, and DEMO_DOCUMENTED_PREFIX.
 */
export function demoRequestIdPrefixes(publicUrl: string): string[] {
  const { protocol, port } = new URL(publicUrl);
  const loopback = ['localhost', '127.0.0.1'].map(
    (host) => `${protocol}//${host}${port ? `:${port}` : ''}/`,
  );
  return [...new Set([`${publicUrl.replace(/\/+$/, '')}/`, ...loopback, DEMO_DOCUMENTED_PREFIX])];
}

/**
 * The demo client's OpenID Connect redirect URIs (docs/api.md §9): the demo's OIDC site page on
 * the port clients reach the API at, by `localhost` and by `127.0.0.1`.
 */
export function demoRedirectUris(publicUrl: string): {
  redirectUris: string[];
  postLogoutRedirectUris: string[];
} {
  const { protocol, port } = new URL(publicUrl);
  const origins = ['localhost', '127.0.0.1'].map(
    (host) => `${protocol}//${host}${port ? `:${port}` : ''}`,
  );
  return {
    redirectUris: origins.map((origin) => `${origin}/demo/oidc/callback`),
    postLogoutRedirectUris: origins.map((origin) => `${origin}/demo/oidc`),
  };
}

/**
 * Creates the demo user and the demo client when missing (development mode only; the caller
 * checks APP_ENV). Existing rows are left as they are (an operator may have changed them), but
 * the demo client's redirect URIs and requestId prefixes follow the port of this start
 * (`publicUrl`); instances starting together are safe: the insert does nothing when the row
 * exists.
 */
export async function ensureDemoData(
  users: UserAdmin,
  clients: ClientAdmin,
  publicUrl: string,
): Promise<{ userCreated: boolean; clientCreated: boolean }> {
  const userCreated = await users.add({ ...DEMO_USER }, { ifAbsent: true });
  const redirects = demoRedirectUris(publicUrl);
  const requestIdPrefixes = demoRequestIdPrefixes(publicUrl);
  const { created: clientCreated } = await clients.add(
    { ...DEMO_CLIENT, requestIdPrefixes, ...redirects },
    { ifAbsent: true },
  );
  if (!clientCreated) {
    await clients.setRedirectUris(DEMO_CLIENT.id, redirects);
    await clients.setRequestIdPrefixes(DEMO_CLIENT.id, requestIdPrefixes);
  }
  return { userCreated, clientCreated };
}
