/**
 * Runs an operator CLI as a child process with this process's stdin, stdout and stderr (so
 * prompts, pipes and `--password-stdin` work as if it were run directly) and the same
 * environment (DATABASE_URL, APP_ENV, DATA_DIR, … are its configuration). Resolves to its exit
 * code; a child killed by a signal gives 128 + the signal's number, as shells report it.
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import type { AdminCli } from './find-admin-cli.js';

export type RunAdminCli = (
  cli: AdminCli,
  args: string[],
  env: Readonly<Record<string, string | undefined>>,
) => Promise<number>;

export const runAdminCli: RunAdminCli = (cli, args, env) =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...cli.nodeArgs, ...args], {
      stdio: 'inherit',
      env: { ...env },
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (code !== null) resolve(code);
      else resolve(128 + (signal ? (constants.signals[signal] ?? 0) : 0));
    });
  });
