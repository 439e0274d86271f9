import { ConfigError } from './config.js';

/** A command line that cannot be run as given (unknown command, missing option): exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** The exit codes of the operator CLIs (documented in each CLI's usage text). */
export const CLI_EXIT = { done: 0, failed: 1, usage: 2 } as const;

/**
 * What an operator CLI prints for `err` and the exit code it ends with: a usage error (ours or
 * node:util parseArgs' ERR_PARSE_ARGS_*) prints the message and the usage text, exit 2; a
 * ConfigError (missing or invalid environment) its message, exit 2; anything else only its
 * message (never a stack trace), exit 1.
 */
export function reportCliError(
  err: unknown,
  stderr: { write(text: string): unknown },
  usage: string,
): number {
  const message = err instanceof Error ? err.message : String(err);
  if (
    err instanceof UsageError ||
    (err as { code?: unknown } | null)?.code?.toString().startsWith('ERR_PARSE_ARGS')
  ) {
    stderr.write(`error: ${message}\n\n${usage}`);
    return CLI_EXIT.usage;
  }
  stderr.write(`error: ${message}\n`);
  return err instanceof ConfigError ? CLI_EXIT.usage : CLI_EXIT.failed;
}
