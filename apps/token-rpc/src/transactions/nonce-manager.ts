import { randomHex } from '@itp/crypto';
import { ServiceUnavailableError, isBaseError } from '@itp/errors';
import type { Logger } from '@itp/service-kit';
import type { KvStore } from '@itp/stores';

/** Handed to the send step: the nonce to use, and a check to run right before broadcasting. */
export interface NonceLease {
  nonce: number;
  /**
   * Refreshes the lease's time to live and throws when this sender no longer holds it (it
   * expired and another sender took it): call it right before eth_sendRawTransaction.
   */
  confirm(): Promise<void>;
}

export interface NonceManagerOptions {
  kv: KvStore;
  /** The chain's pending transaction count of an address (eth_getTransactionCount 'pending'). */
  pendingNonce: (address: string) => Promise<number>;
  logger: Logger;
  /**
   * Time to live of the per-address lease (default 5 s). The holder renews it every third of
   * it while it works, so it only bounds how long a lease nobody holds any more (its holder
   * died, or its release failed during an outage) blocks the address.
   */
  leaseTtlMs?: number;
  /**
   * How long a send waits for the lease before answering 503 (default 10 s: well under the
   * gateway's upstream timeout, so the client gets a clear 503, never a gateway 504).
   */
  leaseWaitMs?: number;
  /** Time to live of the stored next nonce (default 120 s): after a quiet spell, the chain decides. */
  nextNonceTtlMs?: number;
  /** How long the chain's pending nonce may stay behind the stored one (default 30 s). */
  gapTimeoutMs?: number;
  now?: () => number;
}

/**
 * Thrown when the lease stays taken for longer than leaseWaitMs (another send from the address is
 * slow, or a replica that held it died: the lease expires after its TTL). Nothing was sent; the
 * same request may succeed later: resultCode "503", never "500".
 */
export class NonceLeaseTimeoutError extends ServiceUnavailableError {}

/**
 * The stored next nonce of an address: `next` is one past the last transaction the node accepted;
 * `aheadSince` is when the chain's pending nonce was first seen behind `next` (null while it is
 * not), so that a gap (an accepted transaction the node later dropped) is noticed.
 */
export interface StoredNonce {
  next: number;
  aheadSince: number | null;
}

export interface NoncePlan {
  nonce: number;
  aheadSince: number | null;
  /** True when the stored value was ahead for longer than the gap timeout and was dropped. */
  resynchronised: boolean;
}

/**
 * The nonce for the next transaction: max(chain pending nonce, stored next nonce), except that a
 * stored value the chain has stayed behind for longer than `gapTimeoutMs` is dropped and the
 * chain decides (a counter that runs ahead forever would stall every later transaction).
 */
export function planNonce(
  pending: number,
  stored: StoredNonce | null,
  now: number,
  gapTimeoutMs: number,
): NoncePlan {
  if (stored === null || stored.next <= pending) {
    return { nonce: pending, aheadSince: null, resynchronised: false };
  }
  const aheadSince = stored.aheadSince ?? now;
  if (now - aheadSince > gapTimeoutMs) {
    return { nonce: pending, aheadSince: null, resynchronised: true };
  }
  return { nonce: stored.next, aheadSince, resynchronised: false };
}

const SAFE_UINT = /^(0|[1-9][0-9]{0,15})$/;

/** The stored value (JSON `{ next, aheadSince }`), or null when absent or not understood. */
export function parseStoredNonce(value: string | null): StoredNonce | null {
  if (value === null) return null;
  try {
    const parsed = JSON.parse(value) as { next?: unknown; aheadSince?: unknown };
    const next = parsed.next;
    const aheadSince = parsed.aheadSince;
    if (typeof next !== 'number' || !SAFE_UINT.test(String(next))) return null;
    if (
      aheadSince !== null &&
      (typeof aheadSince !== 'number' || !Number.isSafeInteger(aheadSince))
    ) {
      return null;
    }
    return { next, aheadSince };
  } catch {
    return null;
  }
}

export function formatStoredNonce(value: StoredNonce): string {
  return JSON.stringify({ next: value.next, aheadSince: value.aheadSince });
}

/** Wait before the next try for a taken lease: 5 ms doubling to 100 ms, with jitter. */
export function leaseRetryDelayMs(attempt: number): number {
  const base = Math.min(5 * 2 ** Math.min(attempt, 5), 100);
  return Math.round(base / 2 + Math.random() * (base / 2));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Nonces for transactions from one address, safe across concurrent requests and across
 * token-rpc instances sharing one Redis (docs/adr/0006-nonce-manager.md):
 * - one sender per address at a time: an in-process queue per address, then a lease in the
 *   KvStore (`nonce:lease:<address>`, SET NX with a TTL, released with compare-and-swap);
 * - inside the lease: nonce = max(chain pending nonce, stored next nonce), unless the chain has
 *   stayed behind the stored value for longer than gapTimeoutMs (then the chain decides);
 * - the stored next nonce (`nonce:next:<address>`) advances only after the node accepted the
 *   transaction; when the send fails it is deleted, so the next send resynchronises with the
 *   chain instead of running ahead of it (a gap that would stall every later transaction).
 */
export class NonceManager {
  private readonly leaseTtlMs: number;
  private readonly leaseWaitMs: number;
  private readonly nextNonceTtlMs: number;
  private readonly gapTimeoutMs: number;
  private readonly now: () => number;
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(private readonly options: NonceManagerOptions) {
    this.leaseTtlMs = options.leaseTtlMs ?? 5_000;
    this.leaseWaitMs = options.leaseWaitMs ?? 10_000;
    this.nextNonceTtlMs = options.nextNonceTtlMs ?? 120_000;
    this.gapTimeoutMs = options.gapTimeoutMs ?? 30_000;
    this.now = options.now ?? Date.now;
  }

  /**
   * Runs `send` with the next nonce of `address`. `send` must resolve only when the node accepted
   * the transaction and reject when it did not (or may not have).
   */
  withNonce<T>(address: string, send: (lease: NonceLease) => Promise<T>): Promise<T> {
    const id = address.toLowerCase();
    return this.queued(id, () => this.leased(id, address, send));
  }

  /** In-process: one holder per address, in arrival order, so waiters do not poll Redis. */
  private queued<T>(id: string, run: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(id) ?? Promise.resolve();
    const result = previous.then(run, run);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.queues.set(id, tail);
    void tail.then(() => {
      if (this.queues.get(id) === tail) this.queues.delete(id);
    });
    return result;
  }

  private async leased<T>(
    id: string,
    address: string,
    send: (lease: NonceLease) => Promise<T>,
  ): Promise<T> {
    const { kv, logger } = this.options;
    const leaseKey = `nonce:lease:${id}`;
    const nextKey = `nonce:next:${id}`;
    const token = randomHex(16);
    await this.acquire(leaseKey, token, address);
    // Renewed while held: a slow send keeps it, a dead holder's lease ends within the TTL.
    const renew = setInterval(
      () => {
        kv.compareAndSwap(leaseKey, token, token, {
          ttlMs: this.leaseTtlMs,
          ifConnected: true,
        }).catch(() => undefined);
      },
      Math.max(50, Math.floor(this.leaseTtlMs / 3)),
    );
    renew.unref();
    try {
      const [pending, stored] = await Promise.all([
        this.options.pendingNonce(address),
        kvCall(() => kv.get(nextKey)).then(parseStoredNonce),
      ]);
      const plan = planNonce(pending, stored, this.now(), this.gapTimeoutMs);
      if (plan.resynchronised) {
        logger.warn(
          { address, pending, stored: stored?.next },
          "the chain stayed behind the stored nonce too long (a dropped transaction?): using the chain's pending nonce",
        );
      }
      const nonce = plan.nonce;
      logger.trace({ address, pending, stored: stored?.next ?? null, nonce }, 'nonce chosen');
      let result: T;
      try {
        result = await send({ nonce, confirm: () => this.confirm(leaseKey, token, address) });
      } catch (err) {
        await kv.del(nextKey).catch((delErr: unknown) => {
          logger.warn({ address, err: delErr }, 'could not clear the stored nonce');
        });
        throw err;
      }
      const next = formatStoredNonce({ next: nonce + 1, aheadSince: plan.aheadSince });
      await kv.set(nextKey, next, { ttlMs: this.nextNonceTtlMs }).catch((setErr: unknown) => {
        // Harmless: the next send reads the chain's pending nonce, which includes this one.
        logger.warn({ address, err: setErr }, 'could not store the next nonce');
      });
      return result;
    } finally {
      clearInterval(renew);
      await kv
        .compareAndSwap(leaseKey, token, null, { ifConnected: true })
        .catch((casErr: unknown) => {
          logger.warn({ address, err: casErr }, 'could not release the nonce lease; it expires');
        });
    }
  }

  private async acquire(leaseKey: string, token: string, address: string): Promise<void> {
    const deadline = Date.now() + this.leaseWaitMs;
    for (let attempt = 0; ; attempt++) {
      // Never queued while Redis is down: a SET NX sent at reconnect, after this caller gave
      // up, would take a lease nobody holds (ifConnected: refused at once instead).
      const taken = await kvCall(() =>
        this.options.kv.set(leaseKey, token, {
          ttlMs: this.leaseTtlMs,
          onlyIfAbsent: true,
          ifConnected: true,
        }),
      );
      if (taken) return;
      if (Date.now() >= deadline) {
        throw new NonceLeaseTimeoutError(
          `another transaction from ${address} is still being sent; try again`,
        );
      }
      await sleep(leaseRetryDelayMs(attempt));
    }
  }

  private async confirm(leaseKey: string, token: string, address: string): Promise<void> {
    const held = await kvCall(() =>
      this.options.kv.compareAndSwap(leaseKey, token, token, {
        ttlMs: this.leaseTtlMs,
        ifConnected: true,
      }),
    );
    if (!held) {
      throw new NonceLeaseTimeoutError(
        `the nonce lease of ${address} expired before the transaction was sent; nothing was sent, try again`,
      );
    }
  }
}

async function kvCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (isBaseError(err)) throw err;
    // A failure of Redis that is no recognised outage is still Redis not serving: 503, retry.
    throw new ServiceUnavailableError('the nonce store (Redis) is unavailable', { cause: err });
  }
}
