import type { KvStore } from '@itp/stores';
import type { PresentationRequest } from './presentation-request.js';

/** A request with the exact JSON it was read as (the compare-and-swap operand). */
export interface StoredPresentationRequest {
  raw: string;
  request: PresentationRequest;
}

/**
 * The presentation requests in the KvStore. Every change is a compare-and-swap on the JSON read
 * before, so of concurrent calls on any number of instances exactly one makes a given change.
 */
export class PresentationRequestStore {
  constructor(private readonly kv: KvStore) {}

  private key(id: string): string {
    return `presentation-request:${id}`;
  }

  /** False when the id exists already (ids are random: practically never). */
  create(id: string, request: PresentationRequest, ttlMs: number): Promise<boolean> {
    return this.kv.set(this.key(id), JSON.stringify(request), { ttlMs, onlyIfAbsent: true });
  }

  async read(id: string): Promise<StoredPresentationRequest | undefined> {
    const raw = await this.kv.get(this.key(id));
    if (raw === null) return undefined;
    return { raw, request: JSON.parse(raw) as PresentationRequest };
  }

  /** Atomically replaces `current` by `next` (keeping the TTL); false when it changed meanwhile. */
  async replace(
    id: string,
    current: StoredPresentationRequest,
    next: PresentationRequest,
  ): Promise<boolean> {
    return this.kv.compareAndSwap(this.key(id), current.raw, JSON.stringify(next));
  }
}
