/**
 * Exit codes of itp, and how a failure becomes one and a message on stderr:
 *
 *   0  done
 *   1  refused or failed: the platform answered with an error (printed with its code), a credential
 *      did not verify, a transaction failed or was not final in time
 *   2  usage or configuration: unknown command or option, missing argument, unreadable input,
 *      bad --url / ITP_URL, no token where one is needed
 *   3  service unavailable: the gateway cannot be reached or times out, or answers 502 / 503 / 504
 *
 * Operator groups (users, clients, kms, credentials) exit with their own CLI's code (0, 1 or 2 as well).
 */
import {
  BadGatewayError,
  GatewayTimeoutError,
  ItpError,
  NetworkError,
  ServiceUnavailableError,
  TimeoutError,
  TransportRpcError,
} from '@itp/client';
import { ConfigError, FailedError, UsageError } from './errors.js';

export const EXIT = { ok: 0, failed: 1, usage: 2, unavailable: 3 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

const UNAVAILABLE_STATUS = new Set([502, 503, 504]);

/** Whether the failure means the platform (or a service behind the gateway) is not there. */
function isUnavailable(err: ItpError): boolean {
  return (
    err instanceof NetworkError ||
    err instanceof TimeoutError ||
    err instanceof ServiceUnavailableError ||
    err instanceof BadGatewayError ||
    err instanceof GatewayTimeoutError ||
    err instanceof TransportRpcError ||
    (err.status !== undefined && UNAVAILABLE_STATUS.has(err.status))
  );
}

export function exitCodeOf(err: unknown): ExitCode {
  if (err instanceof UsageError || err instanceof ConfigError) return EXIT.usage;
  if (err instanceof ItpError && isUnavailable(err)) return EXIT.unavailable;
  return EXIT.failed;
}

/**
 * What a JSON-RPC -32602 names in `error.data.issues` (`[{ path, message }]`), as
 * `: address: must be …; …`; empty when there is nothing.
 */
function issuesOf(data: unknown): string {
  const issues = (data as { issues?: unknown } | null | undefined)?.issues;
  if (!Array.isArray(issues)) return '';
  const lines = issues.flatMap((issue: unknown) => {
    const { path, message } = (issue ?? {}) as { path?: unknown; message?: unknown };
    if (typeof message !== 'string') return [];
    const where = Array.isArray(path) && path.length > 0 ? `${path.join('.')}: ` : '';
    return [`${where}${message}`];
  });
  return lines.length > 0 ? `: ${lines.join('; ')}` : '';
}

/** The stderr line(s) for a failure; `url` is the gateway the CLI talked to. */
export function describeFailure(err: unknown, url: string): string {
  if (err instanceof UsageError) return `error: ${err.message}\nRun "itp --help" for usage.\n`;
  if (err instanceof ConfigError) return `error: ${err.message}\n`;
  if (err instanceof FailedError) return `error [${err.code}]: ${err.message}\n`;
  if (err instanceof ItpError) {
    const where = err.operation ? ` (${err.operation})` : '';
    const retry = err.retryAfter !== undefined ? `; retry in ${err.retryAfter} s` : '';
    const hint = isUnavailable(err)
      ? `\nThe platform at ${url} is not available: is it running? (set it with --url or ITP_URL)`
      : '';
    const issues = issuesOf(err.data);
    return `error [${String(err.code)}]${where}: ${err.message}${issues}${retry}${hint}\n`;
  }
  const message = err instanceof Error ? err.message : String(err);
  return `error: unexpected failure: ${message}\n`;
}
