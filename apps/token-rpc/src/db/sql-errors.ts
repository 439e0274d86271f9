import { InternalError, isBaseError } from '@itp/errors';
import { toStoreError } from '@itp/stores';

/**
 * Runs one database call and turns its failure into what the API answers. @itp/stores already
 * turns a PostgreSQL outage into ServiceUnavailableError ("503", `Database unavailable: …`) at
 * the pool; this also covers SQLite (dev, single node: a locked or unusable file) through the
 * same classifier. Anything else becomes an InternalError ("500", details only in the log);
 * BaseErrors pass through.
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
  const outage = toStoreError('database', err);
  if (outage !== err) return outage as Error;
  return new InternalError(`database query failed (${what})`, { cause: err });
}
