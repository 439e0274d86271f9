import type { KvStore } from '@itp/stores';

/**
 * One OpenID4VP authorization request, stored as JSON under `oid4vp:<id>` for as long as the
 * web-site login request it approves (waitTime + grace).
 */
export interface Oid4vpSession {
  /** The web-site login request it approves, as auth-user-by-app answered it. */
  requestId: string;
  state: string;
  nonce: string;
  clientId: string;
  /** The signed request object; removed when the wallet fetched it (answered once). */
  requestObject?: string;
  /** `pending` until a wallet's answer claims it (`answered`). */
  status: 'pending' | 'answered';
  /** Epoch ms: the login request's waitTime runs out; nothing is answered after it. */
  expiresAt: number;
}

/** A session with the exact JSON it was read as (the compare-and-swap operand). */
export interface StoredOid4vpSession {
  raw: string;
  session: Oid4vpSession;
}

/**
 * The sessions in the KvStore. Every change is a compare-and-swap on the JSON read before, so of
 * concurrent calls on any number of instances exactly one makes a given change.
 */
export class Oid4vpSessionStore {
  constructor(private readonly kv: KvStore) {}

  private key(id: string): string {
    return `oid4vp:${id}`;
  }

  /** False when the id exists already (ids are random: practically never). */
  create(id: string, session: Oid4vpSession, ttlMs: number): Promise<boolean> {
    return this.kv.set(this.key(id), JSON.stringify(session), { ttlMs, onlyIfAbsent: true });
  }

  async read(id: string): Promise<StoredOid4vpSession | undefined> {
    const raw = await this.kv.get(this.key(id));
    if (raw === null) return undefined;
    return { raw, session: JSON.parse(raw) as Oid4vpSession };
  }

  /**
   * Atomically replaces `current` by `next` (keeping the TTL); the stored JSON of `next` when
   * done, undefined when it changed meanwhile.
   */
  async replace(
    id: string,
    current: StoredOid4vpSession,
    next: Oid4vpSession,
  ): Promise<StoredOid4vpSession | undefined> {
    const raw = JSON.stringify(next);
    return (await this.kv.compareAndSwap(this.key(id), current.raw, raw))
      ? { raw, session: next }
      : undefined;
  }
}
