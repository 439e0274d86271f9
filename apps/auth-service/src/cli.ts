/**
 * Operator CLI of auth-service (users and relying parties). An entry point like main.ts: it reads
 * the environment once and hands it down. Run `tsx apps/auth-service/src/cli.ts --help`.
 */
import { runCli } from './cli/run-cli.js';

process.exitCode = await runCli(process.argv.slice(2), {
  // eslint-disable-next-line no-restricted-properties -- an entry point: configuration is read here once
  env: process.env,
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
});
