import { constantTimeEqual, randomHex } from '@itp/crypto';
import { InternalError, isBaseError } from '@itp/errors';
import type { TempKeyType } from '@itp/schemas';
import type { KvStore } from '@itp/stores';

/** What a tempKey is bound to. */
export interface TempKeyBinding {
  /** EIP-55 checksummed wallet address. */
  address: string;
  keyType: TempKeyType;
}

/** The successful answer of a transaction request, kept for identical retries. */
export interface StoredOutcome {
  transactionId: string;
  resultData: string;
}

/** The service error a transaction request was answered with, kept for identical retries. */
export interface StoredFailure {
  code: string;
  message: string;
  /** Whether the message was shown to the caller (false: "Internal error (request id …)"). */
  expose: boolean;
}

/** What the first request with a tempKey leaves under its key once it claimed it. */
interface UsedMarker {
  used: true;
  /** requestFingerprint() of the request that used the tempKey (a hash: no secret in clear). */
  fingerprint: string;
  state: 'pending' | 'done';
  outcome?: StoredOutcome;
  failure?: StoredFailure;
}

/** What claim() found under a tempKey. */
export type TempKeyClaim =
  /** This request is the first: the tempKey is now used (marked pending with its fingerprint). */
  | { state: 'claimed'; binding: TempKeyBinding; marker: string }
  /** Unknown or expired. */
  | { state: 'missing' }
  /** Used by a request with other parameters (or another signature). */
  | { state: 'usedByOther' }
  /** Used by an identical request that is still being processed. */
  | { state: 'inProgress' }
  /** Used by an identical request that was answered: its answer. */
  | { state: 'answered'; outcome?: StoredOutcome; failure?: StoredFailure };

function keyOf(tempKey: string): string {
  return `tempkey:${tempKey}`;
}

function parse(value: string | null): TempKeyBinding | null {
  if (value === null) return null;
  try {
    const parsed = JSON.parse(value) as Partial<TempKeyBinding> & { used?: unknown };
    if (
      parsed.used === undefined &&
      typeof parsed.address === 'string' &&
      typeof parsed.keyType === 'string'
    ) {
      return { address: parsed.address, keyType: parsed.keyType as TempKeyType };
    }
  } catch {
    // fall through: a value we did not write is no binding
  }
  return null;
}

function parseMarker(value: string): UsedMarker | null {
  try {
    const parsed = JSON.parse(value) as Partial<UsedMarker>;
    if (
      parsed.used === true &&
      typeof parsed.fingerprint === 'string' &&
      (parsed.state === 'pending' || parsed.state === 'done')
    ) {
      return parsed as UsedMarker;
    }
  } catch {
    // not a marker
  }
  return null;
}

/**
 * One Redis call: an outage arrives from @itp/stores as ServiceUnavailableError ("503",
 * `Redis unavailable: …`) and passes on; anything else unexpected is an InternalError ("500").
 */
async function kvCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (isBaseError(err)) throw err;
    throw new InternalError('the temporary key store (Redis) failed', { cause: err });
  }
}

export interface TempKeyStoreOptions {
  /** How long an identical retry gets the answer of the first request (default 24 h). */
  retryTtlMs?: number;
  /** How long a claim may stay pending before it is forgotten (a crashed request; default 10 min). */
  pendingTtlMs?: number;
}

/**
 * Temporary keys in the KvStore: `tempkey:<tempKey>` → `{ address, keyType }` with a TTL
 * (TEMP_KEY_TTL_MS). signData only peeks. The first transaction request that presents a tempKey
 * claims it: one compare-and-swap replaces the binding by a "used" marker holding the request's
 * fingerprint (so of many concurrent requests exactly one claims it), and the answer is stored
 * in the marker once the request is done (`retryTtlMs`). A later request with the same tempKey
 * and the same fingerprint (an identical retry) gets that answer; any other finds it used.
 */
export class TempKeyStore {
  private readonly retryTtlMs: number;
  private readonly pendingTtlMs: number;

  constructor(
    private readonly kv: KvStore,
    private readonly ttlMs: number,
    options: TempKeyStoreOptions = {},
  ) {
    this.retryTtlMs = options.retryTtlMs ?? 86_400_000;
    this.pendingTtlMs = options.pendingTtlMs ?? 600_000;
  }

  /** A new tempKey (256 random bits, 64 hex digits) bound to the address and keyType. */
  async issue(binding: TempKeyBinding): Promise<string> {
    const tempKey = randomHex(32);
    await kvCall(() => this.kv.set(keyOf(tempKey), JSON.stringify(binding), { ttlMs: this.ttlMs }));
    return tempKey;
  }

  /** The binding without consuming it; null when unknown, expired or used. */
  peek(tempKey: string): Promise<TempKeyBinding | null> {
    return kvCall(async () => parse(await this.kv.get(keyOf(tempKey))));
  }

  /**
   * Claims the tempKey for the request with this fingerprint, or says who used it. The
   * compare-and-swap from the binding to the marker is atomic: whatever follows, the tempKey is
   * used from here on (docs/api.md §4: consumed by the first transaction, successful or not).
   */
  async claim(tempKey: string, fingerprint: string): Promise<TempKeyClaim> {
    const key = keyOf(tempKey);
    // A lost compare-and-swap means someone else turned the binding into a marker: read again.
    for (let attempt = 0; attempt < 3; attempt++) {
      const value = await kvCall(() => this.kv.get(key));
      if (value === null) return { state: 'missing' };
      const marker = parseMarker(value);
      if (marker) {
        if (!constantTimeEqual(marker.fingerprint, fingerprint)) return { state: 'usedByOther' };
        if (marker.state === 'pending') return { state: 'inProgress' };
        return { state: 'answered', outcome: marker.outcome, failure: marker.failure };
      }
      const binding = parse(value);
      if (!binding) return { state: 'missing' };
      const pending: UsedMarker = { used: true, fingerprint, state: 'pending' };
      const text = JSON.stringify(pending);
      if (
        await kvCall(() => this.kv.compareAndSwap(key, value, text, { ttlMs: this.pendingTtlMs }))
      ) {
        return { state: 'claimed', binding, marker: text };
      }
    }
    return { state: 'inProgress' };
  }

  /**
   * Stores the answer of the request that claimed the tempKey, for identical retries. False when
   * the claim was no longer there (it outlived pendingTtlMs).
   */
  answer(
    tempKey: string,
    claimed: string,
    result: { outcome: StoredOutcome } | { failure: StoredFailure },
  ): Promise<boolean> {
    const marker = parseMarker(claimed);
    if (!marker) throw new TypeError('answer() needs the marker claim() returned');
    const done: UsedMarker = { ...marker, state: 'done', ...result };
    return kvCall(() =>
      this.kv.compareAndSwap(keyOf(tempKey), claimed, JSON.stringify(done), {
        ttlMs: this.retryTtlMs,
      }),
    );
  }

  /**
   * Replaces this request's claim by the answer of the request the transaction log says used the
   * tempKey (Redis had lost that and offered the tempKey again): its fingerprint and outcome,
   * so that identical retries of that request get its answer here again and any other is refused.
   * False when the claim was no longer there.
   */
  restoreAnswer(
    tempKey: string,
    claimed: string,
    recorded: { fingerprint: string; outcome: StoredOutcome },
  ): Promise<boolean> {
    if (!parseMarker(claimed))
      throw new TypeError('restoreAnswer() needs the marker claim() returned');
    const done: UsedMarker = {
      used: true,
      fingerprint: recorded.fingerprint,
      state: 'done',
      outcome: recorded.outcome,
    };
    return kvCall(() =>
      this.kv.compareAndSwap(keyOf(tempKey), claimed, JSON.stringify(done), {
        ttlMs: this.retryTtlMs,
      }),
    );
  }
}
