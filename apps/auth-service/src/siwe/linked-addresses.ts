/**
 * Which user each Ethereum address logs in as (Sign-In with Ethereum, docs/api.md §11): one
 * address, one user; a user may link several addresses. Addresses are compared without regard
 * to letter case (EIP-55 is a checksum, not a different address).
 */
export interface LinkedAddresses {
  /** The user `address` is linked to, or undefined. */
  userOf(address: string): Promise<string | undefined>;
  /**
   * Links `address` to `userId`: 'linked' (new), 'already' (linked to this user before) or
   * 'taken' (linked to another user; nothing changes). Concurrent links of one address to two
   * users: exactly one wins.
   */
  link(address: string, userId: string, now: number): Promise<'linked' | 'already' | 'taken'>;
  /** Removes the link of `address` to `userId`; false when there was none. */
  unlink(address: string, userId: string): Promise<boolean>;
  /** The addresses linked to `userId` (lower case), oldest first. */
  addressesOf(userId: string): Promise<string[]>;
  /** The links of `userId` with when each was made (epoch ms), oldest first. */
  linksOf(userId: string): Promise<Array<{ address: string; linkedAt: number }>>;
  /** Removes every link of `userId` (a password reset); the addresses that were linked. */
  unlinkAll(userId: string): Promise<string[]>;
}
