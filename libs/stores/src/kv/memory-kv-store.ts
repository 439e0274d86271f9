import type { KvStore, SetOptions } from './kv-store.js';
import { toTtlMs } from './ttl-ms.js';

interface Entry {
  value: string;
  /** Epoch ms after which the entry is gone; null = no expiry. */
  expiresAt: number | null;
}

export interface MemoryKvStoreOptions {
  /** How often expired entries are removed without being accessed. Default 30 s. */
  sweepIntervalMs?: number;
  /** The clock entries expire by (epoch ms). Default Date.now; tests pass a fake one. */
  now?: () => number;
}

const INTEGER = /^-?\d+$/;

/**
 * The in-process stand-in for Redis, for development only: one process, nothing survives a
 * restart, nothing is shared between service instances. Every method runs synchronously inside
 * the promise, so each one is atomic exactly like its Redis counterpart. Expired entries vanish on
 * access and are swept periodically (the timer is unref'd and does not keep the process alive).
 * Keys are not prefixed: every store has its own map, so a prefix would not change anything.
 */
export class MemoryKvStore implements KvStore {
  private readonly entries = new Map<string, Entry>();
  private readonly sweeper: NodeJS.Timeout;
  private closed = false;
  private readonly now: () => number;

  constructor(options: MemoryKvStoreOptions = {}) {
    this.now = options.now ?? Date.now;
    this.sweeper = setInterval(() => this.sweep(), options.sweepIntervalMs ?? 30_000);
    this.sweeper.unref();
  }

  /** Entries held right now, expired-but-not-yet-swept ones included (diagnostics and tests). */
  get entryCount(): number {
    return this.entries.size;
  }

  async get(key: string): Promise<string | null> {
    return this.live(key)?.value ?? null;
  }

  async set(key: string, value: string, options: SetOptions = {}): Promise<boolean> {
    const ttl = options.ttlMs === undefined ? undefined : toTtlMs(options.ttlMs);
    if (options.onlyIfAbsent && this.live(key)) return false;
    this.entries.set(key, { value, expiresAt: ttl === undefined ? null : this.now() + ttl });
    return true;
  }

  async getDel(key: string): Promise<string | null> {
    const entry = this.live(key);
    if (!entry) return null;
    this.entries.delete(key);
    return entry.value;
  }

  async del(key: string): Promise<boolean> {
    return this.live(key) !== undefined && this.entries.delete(key);
  }

  async compareAndSwap(
    key: string,
    expected: string,
    next: string | null,
    options: { ttlMs?: number } = {},
  ): Promise<boolean> {
    const ttl = options.ttlMs === undefined ? undefined : toTtlMs(options.ttlMs);
    const entry = this.live(key);
    if (!entry || entry.value !== expected) return false;
    if (next === null) {
      this.entries.delete(key);
      return true;
    }
    const expiresAt = ttl === undefined ? entry.expiresAt : this.now() + ttl;
    this.entries.set(key, { value: next, expiresAt });
    return true;
  }

  async incr(key: string, options: { ttlMs?: number } = {}): Promise<number> {
    const ttl = options.ttlMs === undefined ? undefined : toTtlMs(options.ttlMs);
    const entry = this.live(key);
    if (!entry) {
      this.entries.set(key, { value: '1', expiresAt: ttl === undefined ? null : this.now() + ttl });
      return 1;
    }
    const current = Number(entry.value);
    if (!INTEGER.test(entry.value) || !Number.isSafeInteger(current + 1)) {
      throw new Error('ERR value is not an integer or out of range');
    }
    entry.value = String(current + 1);
    return current + 1;
  }

  async ttlMs(key: string): Promise<number | null> {
    const entry = this.live(key);
    if (!entry || entry.expiresAt === null) return null;
    return Math.max(1, entry.expiresAt - this.now());
  }

  async ping(): Promise<void> {
    this.assertOpen();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweeper);
    this.entries.clear();
  }

  /** The entry when present and not expired; removes it when expired. Throws once closed. */
  private live(key: string): Entry | undefined {
    this.assertOpen();
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt !== null && entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  private sweep(): void {
    const now = this.now();
    for (const [key, entry] of this.entries) {
      if (entry.expiresAt !== null && entry.expiresAt <= now) this.entries.delete(key);
    }
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('Connection is closed.');
  }
}
