import { sha256Hex } from '@itp/crypto';
import type { KvStore } from '@itp/stores';

/** How long a client stays "known" for a user after logging in as them (30 days). */
export const KNOWN_CLIENT_TTL_MS = 30 * 24 * 3_600_000;

/**
 * Client address groups (clientGroup) that logged in as a user before: the per-id hold never
 * refuses them, so an attacker who fails for an id from elsewhere cannot keep its owner out.
 * Kept in the KvStore (`login:known:<sha256(id, group)>`): losing it only means the next hold
 * may apply to the owner's client once more.
 */
export class KnownClients {
  constructor(
    private readonly kv: KvStore,
    private readonly ttlMs = KNOWN_CLIENT_TTL_MS,
  ) {}

  private key(id: string, group: string): string {
    return `login:known:${sha256Hex(`${id}\u0000${group}`)}`;
  }

  async has(id: string, group: string): Promise<boolean> {
    return (await this.kv.get(this.key(id, group))) !== null;
  }

  async remember(id: string, group: string): Promise<void> {
    await this.kv.set(this.key(id, group), '1', { ttlMs: this.ttlMs });
  }
}
