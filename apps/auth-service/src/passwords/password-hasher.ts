/** The password-hashing port (users' passwords and relying parties' secrets). */
export interface PasswordHasher {
  /** A self-describing hash (PHC string) with a fresh salt. */
  hash(secret: string): Promise<string>;
  /** False for a wrong secret or an unreadable hash; never throws for bad input. */
  verify(hash: string, secret: string): Promise<boolean>;
  /** True when the hash was made with other parameters than today's (rehash after a login). */
  needsRehash(hash: string): boolean;
  /**
   * Verifies against a fixed hash made at start, so that a login for an unknown or disabled
   * user does the same work as one for a real user (no timing oracle). Always false.
   */
  verifyDummy(secret: string): Promise<false>;
}
