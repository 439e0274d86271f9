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
  requestIdPrefixes: ['http://localhost:8080/'],
} as const;

/**
 * Creates the demo user and the demo client when missing (development mode only; the caller
 * checks APP_ENV). Existing rows are left as they are (an operator may have changed them);
 * instances starting together are safe: the insert does nothing when the row exists.
 */
export async function ensureDemoData(
  users: UserAdmin,
  clients: ClientAdmin,
): Promise<{ userCreated: boolean; clientCreated: boolean }> {
  const userCreated = await users.add({ ...DEMO_USER }, { ifAbsent: true });
  const { created: clientCreated } = await clients.add(
    { ...DEMO_CLIENT, requestIdPrefixes: [...DEMO_CLIENT.requestIdPrefixes] },
    { ifAbsent: true },
  );
  return { userCreated, clientCreated };
}
