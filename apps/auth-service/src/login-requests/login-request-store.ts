import type { KvStore } from '@itp/stores';
import type { LoginRequest } from './login-request.js';

/** A stored request with the exact JSON it was read as (the compare-and-swap operand). */
export interface StoredLoginRequest {
  raw: string;
  request: LoginRequest;
}

/**
 * Login requests in the KvStore under `login:<id>`, as JSON, with the TTL given at creation.
 * Every state change is a compare-and-swap on the JSON read before, so two instances (or two
 * concurrent calls) can never both make the same transition.
 */
export class LoginRequestStore {
  constructor(private readonly kv: KvStore) {}

  private key(id: string): string {
    return `login:${id}`;
  }

  /** False when the id exists already (ids are random: practically never). */
  create(id: string, request: LoginRequest, ttlMs: number): Promise<boolean> {
    return this.kv.set(this.key(id), JSON.stringify(request), { ttlMs, onlyIfAbsent: true });
  }

  async read(id: string): Promise<StoredLoginRequest | undefined> {
    const raw = await this.kv.get(this.key(id));
    if (raw === null) return undefined;
    return { raw, request: JSON.parse(raw) as LoginRequest };
  }

  /** Atomically replaces `current` by `next` (keeping the TTL); false when it changed meanwhile. */
  replace(id: string, current: StoredLoginRequest, next: LoginRequest): Promise<boolean> {
    return this.kv.compareAndSwap(this.key(id), current.raw, JSON.stringify(next));
  }
}
