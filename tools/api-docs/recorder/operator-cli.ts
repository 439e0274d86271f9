import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

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
  await new Promise<void>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'apps/auth-service/src/cli.ts', ...args],
      {
        cwd: repoRoot,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '',
          APP_ENV: 'development',
          DATA_DIR: dataDir,
        },
        stdio: ['pipe', 'ignore', 'pipe'],
      },
    );
    let said = '';
    child.stderr?.on('data', (chunk: Buffer) => (said += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`auth-service cli users add ${id}: exit ${code}: ${said.trim()}`)),
    );
    child.stdin?.end(`${password}\n`);
  });
  return { id, name, password };
}
