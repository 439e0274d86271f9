/**
 * itp, the platform's command-line tool (usage.ts; `itp --help`). An entry point: it reads the
 * environment once and hands it down; everything else is in run-cli.ts.
 */
import { runCli } from './run-cli.js';

process.exitCode = await runCli(process.argv.slice(2), {
  env: process.env,
  cwd: process.cwd(),
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
});
