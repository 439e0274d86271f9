import { sha256Hex } from '@itp/crypto';
import { oneTimeKey, type KvStore, type OneTimeMarks } from '@itp/stores';

/** How long a passkey ceremony's challenge answers (docs/api.md §13: 5 minutes). */
export const PASSKEY_CHALLENGE_TTL_MS = 5 * 60_000;

/** What a challenge was issued for: a login (anyone), or a registration by one user. */
export type ChallengePurpose = { kind: 'login' } | { kind: 'registration'; userId: string };

interface StoredChallenge {
  purpose: ChallengePurpose;
  expiresAt: number;
}

/**
 * The one-time challenges of passkey ceremonies (docs/api.md §13). Issued into Redis (any
 * replica answers), taken once with GETDEL; a taken login challenge is also marked in SQL, so a
 * Redis that went back in time cannot hand it out a second time (contract §16).
 */
export class PasskeyChallenges {
  constructor(
    private readonly kv: KvStore,
    private readonly used: OneTimeMarks,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Keeps `challenge` (base64url, from the options) for its purpose, for five minutes. */
  async issue(challenge: string, purpose: ChallengePurpose): Promise<void> {
    const stored: StoredChallenge = { purpose, expiresAt: this.clock() + PASSKEY_CHALLENGE_TTL_MS };
    await this.kv.set(key(challenge), JSON.stringify(stored), { ttlMs: PASSKEY_CHALLENGE_TTL_MS });
  }

  /**
   * Takes `challenge` for `purpose`: true for the one caller that gets it (issued, unexpired,
   * unused, for this purpose and user), false otherwise. Taken even when the purpose does not
   * match: a challenge is never tried twice.
   */
  async take(challenge: string, purpose: ChallengePurpose): Promise<boolean> {
    const raw = await this.kv.getDel(key(challenge));
    if (raw === null) return false;
    let stored: StoredChallenge;
    try {
      stored = JSON.parse(raw) as StoredChallenge;
    } catch {
      return false;
    }
    const now = this.clock();
    if (!(stored.expiresAt > now) || !samePurpose(stored.purpose, purpose)) return false;
    return this.used.mark(oneTimeKey('passkey-challenge', challenge), stored.expiresAt, now);
  }
}

function samePurpose(a: ChallengePurpose, b: ChallengePurpose): boolean {
  if (a.kind === 'login' || b.kind === 'login') return a.kind === b.kind;
  return a.userId === b.userId;
}

const key = (challenge: string) => `passkey:challenge:${sha256Hex(challenge)}`;
