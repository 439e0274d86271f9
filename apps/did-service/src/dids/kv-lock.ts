import { randomBytes } from 'node:crypto';
import { ServiceUnavailableError } from '@itp/errors';
import type { KvStore } from '@itp/stores';

export interface KvLockOptions {
  /** The lock's time to live: it frees itself if its holder dies. */
  ttlMs: number;
  /** How long to wait for a held lock before giving up (503). */
  waitMs: number;
}

/**
 * Runs `work` while holding `key` in the KV store (SET NX with a TTL, released by compare-and-
 * delete), so that replicas serialise one piece of work. Waiting callers poll every 25–75 ms.
 */
export async function withKvLock<T>(
  kv: KvStore,
  key: string,
  options: KvLockOptions,
  work: () => Promise<T>,
): Promise<T> {
  const token = randomBytes(12).toString('hex');
  const deadline = Date.now() + options.waitMs;
  while (!(await kv.set(key, token, { ttlMs: options.ttlMs, onlyIfAbsent: true }))) {
    if (Date.now() > deadline)
      throw new ServiceUnavailableError('Busy with the same request; try again');
    await new Promise((resolve) => setTimeout(resolve, 25 + Math.floor(Math.random() * 50)));
  }
  try {
    return await work();
  } finally {
    await kv.compareAndSwap(key, token, null).catch(() => undefined);
  }
}
