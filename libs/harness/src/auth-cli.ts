import { REPO_ROOT } from './app-process.js';
import { runProcess } from './spawn-guarded.js';

/**
 * Runs auth-service's operator CLI (`apps/auth-service/src/cli.ts`) the way an operator does,
 * against the given store settings (`DATABASE_URL`, or `DATA_DIR` for the dev SQLite file;
 * `APP_ENV` development unless given). Secrets go on `stdin` (`--password-stdin`, `--secret-stdin`): never in a process
 * list. Resolves on exit code 0; rejects with what the CLI said otherwise.
 */
export async function runAuthCli(
  args: string[],
  env: { APP_ENV?: string; DATABASE_URL?: string; DATA_DIR?: string },
  stdin = '',
): Promise<void> {
  const run = await runProcess(
    process.execPath,
    ['--import', 'tsx', 'apps/auth-service/src/cli.ts', ...args],
    {
      label: `auth-service cli ${args[0] ?? ''} ${args[1] ?? ''}`,
      cwd: REPO_ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        APP_ENV: 'development',
        ...env,
      },
      stdin,
    },
  );
  if (run.code !== 0) {
    throw new Error(
      `auth-service cli ${args[0]} ${args[1]}: exit ${run.code}: ${run.stderr.trim()}`,
    );
  }
}
