/** The CLI's own failures, before or beside any call to the platform. */

/** Wrong command line: unknown command or option, missing or malformed argument. Exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** Bad configuration (e.g. `--url` / ITP_URL not an http(s) URL, no token where one is needed). Exit code 2. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/**
 * The platform answered, but the outcome is a failure the CLI itself detects (a credential that
 * does not verify, a transaction that was mined reverted, a wait that ran out). Exit code 1.
 */
export class FailedError extends Error {
  override readonly name = 'FailedError';
  constructor(
    message: string,
    /** Shown in brackets before the message, like an API error's code. */
    readonly code: string,
  ) {
    super(message);
  }
}
