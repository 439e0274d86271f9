/**
 * Operator CLI of did-service (the local KMS's key rotation, revoking credentials). An entry point like main.ts: it
 * reads the environment once and hands it down. In the image: `node dist/cli.js --help`.
 */
import { runCli } from './cli/run-cli.js';

process.exitCode = await runCli(process.argv.slice(2), {
  // eslint-disable-next-line no-restricted-properties -- an entry point: configuration is read here once
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
});
