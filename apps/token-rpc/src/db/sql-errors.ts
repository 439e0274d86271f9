import { InternalError, isBaseError } from '@itp/errors';
import { DatabaseUnavailableError } from '../errors.js';

/** Socket-level failures (Node system error codes) of a connection to PostgreSQL. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);

/**
 * SQLSTATEs that mean "the database is not there for us" rather than "this query is wrong":
 * class 08 (connection exception), 28 (the server refuses our credentials), 3D000 (the database
 * does not exist, e.g. dropped), 53300 (too many connections), 57P01-57P03 (shutting down, crashed,
 * cannot connect now), 57014 (statement cancelled: timeout).
 */
const UNAVAILABLE_SQLSTATE = /^(08[0-9A-Z]{3}|28[0-9A-Z]{3}|3D000|53300|57P0[123]|57014)$/;

/** SQLite: the file is locked, cannot be opened or read/written. */
const UNAVAILABLE_SQLITE = /^SQLITE_(BUSY|LOCKED|CANTOPEN|IOERR|FULL|PROTOCOL)/;

/** pg / pg-pool / Kysely / better-sqlite3 messages of a lost or closed connection (no code). */
const UNAVAILABLE_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|connection error and is not queryable|Client was closed|Cannot use a pool after calling end|has already been destroyed|database connection is not open/i;

interface ErrorLike {
  code?: unknown;
  message?: unknown;
  errors?: unknown;
  cause?: unknown;
}

/**
 * Why the database is unavailable, as a short text without host, port or URL (e.g.
 * `connection failed (ECONNREFUSED)`), or null when `err` is not a connection-level failure.
 * Looks into AggregateError members (a dual-stack connect) and `cause`.
 */
export function databaseUnavailableReason(err: unknown, depth = 0): string | null {
  if (err === null || typeof err !== 'object' || depth > 4) return null;
  const { code, message, errors, cause } = err as ErrorLike;
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code)) return `connection failed (${code})`;
    if (UNAVAILABLE_SQLSTATE.test(code)) return `the database server refused the session (${code})`;
    if (UNAVAILABLE_SQLITE.test(code)) return `the database file is not usable (${code})`;
  }
  if (typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message)) {
    return /timeout/i.test(message) ? 'no connection within the timeout' : 'connection lost';
  }
  if (Array.isArray(errors)) {
    for (const member of errors) {
      const reason = databaseUnavailableReason(member, depth + 1);
      if (reason) return reason;
    }
  }
  return databaseUnavailableReason(cause, depth + 1);
}

/**
 * Runs one database call and turns its failure into what the API answers: a connection-level
 * failure is DatabaseUnavailableError ("503", `Database unavailable: …`), anything else an
 * InternalError ("500", details only in the log). BaseErrors pass through.
 */
export async function sqlCall<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw toDatabaseError(what, err);
  }
}

export function toDatabaseError(what: string, err: unknown): Error {
  if (isBaseError(err)) return err;
  const reason = databaseUnavailableReason(err);
  if (reason)
    return new DatabaseUnavailableError(`Database unavailable: ${reason}`, { cause: err });
  return new InternalError(`database query failed (${what})`, { cause: err });
}
