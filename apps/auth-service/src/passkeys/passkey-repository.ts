import type { Passkey } from './passkey.js';

/** The passkeys port (adapter: SqlPasskeys, auth_passkeys). */
export interface PasskeyRepository {
  findById(id: string): Promise<Passkey | undefined>;
  /** The user's passkeys, oldest first. */
  listByUser(userId: string): Promise<Passkey[]>;
  /** Adds a passkey; false (nothing changed) when its credential id is registered already. */
  insertIfAbsent(passkey: Passkey): Promise<boolean>;
  /**
   * Records a use: the new counter and when, only if the stored counter is still `seenCounter`
   * (false: another login with the same passkey came first — refused as a replay or a clone).
   */
  recordUse(id: string, seenCounter: number, newCounter: number, now: number): Promise<boolean>;
  /** Removes one passkey of the user; false when the user has no such passkey. */
  remove(userId: string, id: string): Promise<boolean>;
  /** Removes every passkey of the user (a password reset's clean slate); how many. */
  removeAllOf(userId: string): Promise<number>;
}
