import type { AccountEpoch } from '@itp/auth-jwt';

/** What auth-service knows of a user that decides whether its JWTs still count (docs/api.md §12). */
export interface UserStatusPort {
  /**
   * The user's AccountEpoch: `active` (exists and enabled) and `tokensValidAfter` (epoch
   * seconds: a JWT issued before it was ended by a reset, a disable or a logout everywhere).
   * Throws (any error) when nobody can tell.
   */
  epochOf(userId: string): Promise<AccountEpoch>;
}
