/**
 * The key-value port: everything short-lived (app-login requests, temp keys, rate-limit counters,
 * nonce locks, caches). Redis in production; an in-process stand-in in dev only. Both pass the same
 * contract suite (kv-store.contract.ts). Values are strings (JSON where structured).
 */
export interface SetOptions {
  /** Time to live in milliseconds; omitted = no expiry. */
  ttlMs?: number;
  /** Only set when the key does not exist (SET NX). */
  onlyIfAbsent?: boolean;
  /**
   * Refuse at once (unavailable) instead of queueing the command while the connection is down.
   * For commands that must not run later than their caller waits — a lease taken by a command
   * replayed at reconnect, after its caller gave up, is a lease nobody holds.
   */
  ifConnected?: boolean;
}

export interface KvStore {
  get(key: string): Promise<string | null>;
  /** Returns false only when `onlyIfAbsent` is set and the key existed. */
  set(key: string, value: string, options?: SetOptions): Promise<boolean>;
  /** Atomically reads and deletes (consume-once). */
  getDel(key: string): Promise<string | null>;
  /** Returns whether a key was deleted. */
  del(key: string): Promise<boolean>;
  /**
   * Atomically replaces the value when it currently equals `expected`. `next === null` deletes.
   * Without `ttlMs` the key keeps its remaining time to live.
   */
  compareAndSwap(
    key: string,
    expected: string,
    next: string | null,
    options?: { ttlMs?: number; ifConnected?: boolean },
  ): Promise<boolean>;
  /** Atomically increments an integer counter; `ttlMs` is applied when the counter is created. */
  incr(key: string, options?: { ttlMs?: number }): Promise<number>;
  /** Remaining time to live in ms; null when the key is missing or has no expiry. */
  ttlMs(key: string): Promise<number | null>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
