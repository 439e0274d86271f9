import { spawn } from 'node:child_process';
import { REPO_ROOT } from './app-process.js';

/**
 * Runs auth-service's operator CLI (`apps/auth-service/src/cli.ts`) the way an operator does,
 * against the given store settings (`DATABASE_URL`, or `DATA_DIR` for the dev SQLite file;
 * `APP_ENV` development unless given). Secrets go on `stdin` (`--password-stdin`, `--secret-stdin`): never in a process
 * list. Resolves on exit code 0; rejects with what the CLI said otherwise.
 */
export function runAuthCli(
  args: string[],
  env: { APP_ENV?: string; DATABASE_URL?: string; DATA_DIR?: string },
  stdin = '',
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'apps/auth-service/src/cli.ts', ...args],
      {
        cwd: REPO_ROOT,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '',
          APP_ENV: 'development',
          ...env,
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
        : reject(new Error(`auth-service cli ${args[0]} ${args[1]}: exit ${code}: ${said.trim()}`)),
    );
    child.stdin?.end(stdin);
  });
}
