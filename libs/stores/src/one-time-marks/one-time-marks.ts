/**
 * The one-time-marks port: a record that something happened once, kept by a store that cannot go
 * back in time (SQL). Redis may restart empty or come back with older data (a failover to a
 * replica that lagged, a restore from a backup); a rule decided by a mark still holds then, since
 * Redis is at most a cache in front of it.
 *
 * A key is a namespaced input (`<namespace>\u0000<value>`, see oneTimeKey): adapters store only
 * its SHA-256, never the value (codes and tokens may be keys).
 */
export interface OneTimeMarks {
  /**
   * Marks `key` until at least `expiresAt` (epoch ms): true only for the first mark of that key on
   * any replica, false when it was marked before (a replay, a second use, a lost race).
   */
  mark(key: string, expiresAt: number, now: number): Promise<boolean>;
  /** Whether `key` was marked (and its mark is still kept at `now`). */
  isMarked(key: string, now: number): Promise<boolean>;
}

/** A namespaced key: the namespace (e.g. `oid4vp-response`) and the value's parts, NUL-separated. */
export function oneTimeKey(namespace: string, ...parts: string[]): string {
  if (!/^[a-z0-9][a-z0-9:._-]*$/i.test(namespace)) {
    throw new Error(`Invalid one-time-mark namespace "${namespace}"`);
  }
  return [namespace, ...parts].join('\u0000');
}
