import { BaseError, ServiceUnavailableError } from '@itp/errors';

/**
 * Which failures of a store mean "the store is down or unreachable" rather than "this operation
 * is wrong". The adapters (openSqlDatabase's PostgreSQL pool, RedisKvStore) turn those into
 * ServiceUnavailableError (REST 503 with Retry-After, JSON-RPC resultCode "503"), so that a
 * dependency outage never reaches callers as a 500 / -32603 "Internal error". Everything else
 * (a constraint violation, a syntax error, a bug) is passed on unchanged.
 */
export type StoreName = 'database' | 'redis';

/** What callers are told, before the reason; the driver's own error is the `cause` (logged, never sent). */
export const STORE_UNAVAILABLE_MESSAGES: Record<StoreName, string> = {
  database: 'Database unavailable',
  redis: 'Redis unavailable',
};

/** Socket-level failures of Node (connect, DNS, a connection that broke). */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs that mean "the database is not there for us" rather than "this statement is wrong":
 * class 08 (connection exception), class 28 (the server refuses our credentials), 3D000 (the
 * database does not exist, e.g. dropped), 53300 (too many connections), 57P01-57P03 (shutting
 * down, crashed, cannot connect now), 57014 (statement cancelled: a statement timeout on an
 * overloaded server — the same statement may succeed later).
 */
const PG_UNAVAILABLE_STATE = /^(08[0-9A-Z]{3}|28[0-9A-Z]{3}|3D000|53300|57P0[123]|57014)$/;

/** SQLite (dev and single-node deployments): the file is locked, cannot be opened or written. */
const SQLITE_UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|CANTOPEN|IOERR|FULL|PROTOCOL)/;

/**
 * pg / pg-pool / Kysely / better-sqlite3 / typeorm errors without a code, by message. typeorm's
 * QueryRunnerAlreadyReleasedError is what a transaction (Veramo's `save`) throws once its
 * connection was cut under it: the driver's error is gone by then.
 */
const SQL_UNAVAILABLE_MESSAGES: Array<[RegExp, string]> = [
  [
    /timeout exceeded when trying to connect|Query read timeout/i,
    'no connection within the timeout',
  ],
  [
    /Connection terminated|is not queryable|Client was closed|Cannot use a pool after calling end|has already been destroyed|database connection is not open|Query runner already released/i,
    'connection lost',
  ],
];

/**
 * Redis replies that mean "not now": loading after a restart, failover in progress, or full
 * (OOM: `maxmemory` reached under `noeviction`, docs/operations.md "Sizing Redis").
 */
const REDIS_UNAVAILABLE_REPLY = /^(LOADING|MASTERDOWN|CLUSTERDOWN|TRYAGAIN|OOM)\b/;

interface ErrorLike {
  code?: unknown;
  message?: unknown;
  errors?: unknown;
  cause?: unknown;
  /** typeorm's QueryFailedError keeps the driver's error here. */
  driverError?: unknown;
}

/**
 * Looks at `err`, the members of an AggregateError (a dual-stack connect: ::1 and 127.0.0.1),
 * the `cause` chain and typeorm's `driverError`, and answers the first reason `classify` finds.
 */
function firstReason(
  err: unknown,
  classify: (err: ErrorLike) => string | undefined,
  depth = 0,
): string | undefined {
  if (err === null || typeof err !== 'object' || depth > 4) return undefined;
  const found = classify(err as ErrorLike);
  if (found !== undefined) return found;
  const { errors, cause, driverError } = err as ErrorLike;
  if (Array.isArray(errors)) {
    for (const member of errors) {
      const reason = firstReason(member, classify, depth + 1);
      if (reason !== undefined) return reason;
    }
  }
  return firstReason(cause, classify, depth + 1) ?? firstReason(driverError, classify, depth + 1);
}

function networkReason({ code }: ErrorLike): string | undefined {
  return typeof code === 'string' && NETWORK_CODES.has(code)
    ? `connection failed (${code})`
    : undefined;
}

/**
 * Why a PostgreSQL (pg / pg-pool) or SQLite (better-sqlite3) error means "unavailable" — a short
 * text without host, port or URL, e.g. `connection failed (ECONNREFUSED)` — else undefined (a
 * constraint violation, a syntax error, a bug: the statement, not the server).
 */
export function databaseUnavailableReason(err: unknown): string | undefined {
  return firstReason(err, (e) => {
    const network = networkReason(e);
    if (network) return network;
    if (typeof e.code === 'string') {
      if (PG_UNAVAILABLE_STATE.test(e.code)) {
        return `the database server refused the session (${e.code})`;
      }
      if (SQLITE_UNAVAILABLE.test(e.code)) return `the database file is not usable (${e.code})`;
    }
    const message = typeof e.message === 'string' ? e.message : '';
    return SQL_UNAVAILABLE_MESSAGES.find(([pattern]) => pattern.test(message))?.[1];
  });
}

/** Why a Redis (ioredis) error means "unavailable" (a short, secret-free reason), else undefined. */
export function redisUnavailableReason(err: unknown): string | undefined {
  return firstReason(err, (e) => {
    const network = networkReason(e);
    if (network) return network;
    if ((e as Error).name === 'MaxRetriesPerRequestError') return 'no connection';
    const message = typeof e.message === 'string' ? e.message : '';
    if (message === 'Connection is closed.') return 'connection closed';
    if (message === 'Command timed out') return 'command timeout';
    if (message.startsWith("Stream isn't writeable")) return 'no connection';
    const reply = REDIS_UNAVAILABLE_REPLY.exec(message);
    return reply ? `not serving (${reply[1]})` : undefined;
  });
}

const REASONS: Record<StoreName, (err: unknown) => string | undefined> = {
  database: databaseUnavailableReason,
  redis: redisUnavailableReason,
};

/**
 * `err` as the store adapters pass it on: a ServiceUnavailableError (`<Store> unavailable:
 * <reason>`, cause: `err`, details: `{ store, reason }`) when it means the store is unavailable;
 * otherwise `err` itself. A BaseError is never rewrapped.
 */
export function toStoreError(store: StoreName, err: unknown): unknown {
  if (err instanceof BaseError) return err;
  const reason = REASONS[store](err);
  if (reason === undefined) return err;
  return new ServiceUnavailableError(`${STORE_UNAVAILABLE_MESSAGES[store]}: ${reason}`, {
    cause: err,
    details: { store, reason },
  });
}

/** Whether `err` is what toStoreError made of an outage of `store`. */
export function isStoreUnavailable(err: unknown, store?: StoreName): boolean {
  if (!(err instanceof ServiceUnavailableError)) return false;
  const details = err.details as { store?: unknown } | undefined;
  return store === undefined ? details?.store !== undefined : details?.store === store;
}

/**
 * The driver's own error behind a store outage (readiness reports quote it: "connect
 * ECONNREFUSED 10.0.0.5:5432" tells an operator more than the message callers get).
 */
export function driverError(err: unknown): unknown {
  return isStoreUnavailable(err) && (err as Error).cause !== undefined ? (err as Error).cause : err;
}
