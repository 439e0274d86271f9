import { randomBytes } from 'node:crypto';
import { runAuthCli } from '@itp/harness';

export interface ExtraUser {
  id: string;
  name: string;
  password: string;
}

/**
 * Adds a user to the running dev stack with auth-service's operator CLI (`users add`), pointed at
 * the stack's data folder (development: its SQLite file there), the way an operator adds one.
 * The dev stack seeds only the demo user; a second one is what "a credential of another user"
 * needs. The password is random and given on stdin: it never appears in a process list.
 */
export async function addUser(dataDir: string, id: string, name: string): Promise<ExtraUser> {
  const password = randomBytes(18).toString('base64url');
  const args = ['users', 'add', id, '--name', name, '--password-stdin'];
  await runAuthCli(args, { DATA_DIR: dataDir }, `${password}\n`);
  return { id, name, password };
}
