import { InsufficientUserAuthenticationError, UnauthorizedError } from '@itp/errors';
import type { VerifiedJwt } from './jwt-verifier.js';

/**
 * What a service must know of a user to accept one of its platform JWTs (docs/api.md §12):
 * whether the user may act at all, and the user's security epoch.
 */
export interface AccountEpoch {
  /** false: the user is disabled or does not exist (any more). */
  active: boolean;
  /**
   * Epoch seconds: a JWT whose `iat` is before this was ended by a password reset, a disable or a
   * logout everywhere. 0: nothing ended yet. Always a whole second after the moment that moved
   * it, so that a token issued in that same second before it is refused (the issuer never dates
   * a new token before it: `issuedAtFor`).
   */
  tokensValidAfter: number;
}

/** The refusal of a JWT ended by the user's epoch (one wording in every service). */
export const TOKEN_ENDED_MESSAGE =
  'This token was ended by a password reset, a disable or a logout everywhere: log in again';

/** The refusal of a JWT of a disabled or removed user. */
export const USER_INACTIVE_MESSAGE = 'The user does not exist or is disabled';

/** The epoch a reset, a disable or a logout everywhere at `nowMs` moves the user to. */
export function nextTokensValidAfter(nowMs: number): number {
  return Math.floor(nowMs / 1000) + 1;
}

/**
 * The `iat` of a token issued now for a user with this epoch: now, but never before the epoch
 * (a login in the very second of a reset is not refused by it).
 */
export function issuedAtFor(nowMs: number, tokensValidAfter: number): number {
  return Math.max(Math.floor(nowMs / 1000), tokensValidAfter);
}

/** When the user last proved a factor: `auth_time`, else `iat` (tokens from before auth_time). */
export function authTimeOf(verified: VerifiedJwt): number {
  const { auth_time: authTime, iat } = verified.claims as { auth_time?: unknown; iat?: number };
  return typeof authTime === 'number' && Number.isFinite(authTime) ? authTime : (iat ?? 0);
}

/**
 * The one decision "is this JWT still good for this user", used by every service that takes
 * user JWTs (auth-service's own routes, did-service): 401 for a user who is disabled or gone
 * (`undefined`), and for a token issued before the user's epoch.
 */
export function assertTokenCurrent(verified: VerifiedJwt, account: AccountEpoch | undefined): void {
  if (!account || !account.active) {
    throw new UnauthorizedError(USER_INACTIVE_MESSAGE, { details: { reason: 'inactive user' } });
  }
  const iat = verified.claims.iat ?? 0;
  if (iat < account.tokensValidAfter) {
    throw new UnauthorizedError(TOKEN_ENDED_MESSAGE, {
      details: { reason: 'issued before the user epoch' },
    });
  }
}

/**
 * Step-up (RFC 9470): adding a way into the account needs a login at most `maxAgeSeconds` ago;
 * else InsufficientUserAuthenticationError (401 with its `WWW-Authenticate` challenge).
 */
export function assertFreshAuthentication(
  verified: VerifiedJwt,
  maxAgeSeconds: number,
  nowMs: number,
): void {
  const age = Math.floor(nowMs / 1000) - authTimeOf(verified);
  if (age > maxAgeSeconds) {
    throw new InsufficientUserAuthenticationError(maxAgeSeconds, { details: { age } });
  }
}
