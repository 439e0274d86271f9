import type { Request } from 'express';
import { assertFreshAuthentication, type JwtVerifier, type VerifiedJwt } from '@itp/auth-jwt';
import { bearerToken } from '@itp/service-kit';
import { UnauthorizedError } from '@itp/errors';
import type { ActiveUsers } from '../users/active-users.js';

/** How the DID API knows who acts: auth-service's JWT, and that it still counts for its user. */
export interface UserAuthentication {
  verifier: JwtVerifier;
  activeUsers: ActiveUsers;
  /** STEP_UP_MAX_AGE_SECONDS: the oldest `auth_time` a route that adds a way in accepts. */
  stepUpMaxAgeSeconds: number;
  /** Clock in milliseconds (tests); default Date.now. */
  now?: () => number;
}

/** The caller of a route: the user and the JWT that says so (its `auth_time` for step-up). */
export interface AuthenticatedUser {
  userId: string;
  jwt: VerifiedJwt;
}

/**
 * The user of a required `Authorization: Bearer <JWT>` (auth-service's JWT); 401 without one,
 * for an invalid one, for a user disabled since the token was issued, and for a token issued
 * before the user's `tokensValidAfter` (ended by a password reset, a disable or a logout
 * everywhere; docs/api.md §12) — at once, or within USER_STATUS_CACHE_MS.
 */
export async function requireUser(
  req: Request,
  auth: UserAuthentication,
): Promise<AuthenticatedUser> {
  const token = bearerToken(req);
  if (token === undefined) throw new UnauthorizedError('Authorization: Bearer <JWT> is required');
  const jwt = await auth.verifier.verify(token);
  await auth.activeUsers.assertTokenCurrent(jwt);
  return { userId: jwt.userId, jwt };
}

/** The user of an optional bearer JWT: none sent → undefined; sent but not good → 401. */
export async function optionalUser(
  req: Request,
  auth: UserAuthentication,
): Promise<AuthenticatedUser | undefined> {
  if (req.headers.authorization === undefined) return undefined;
  return requireUser(req, auth);
}

/**
 * Step-up (RFC 9470) for the routes that add a way into the account (create-vc, create-did
 * binding a DID, credential-offer): the JWT's `auth_time` (else `iat`) at most
 * STEP_UP_MAX_AGE_SECONDS old, else 401 `insufficient_user_authentication` with its
 * `WWW-Authenticate` challenge (`max_age`); the client logs in again and retries.
 */
export function requireFreshAuthentication(
  user: AuthenticatedUser,
  auth: UserAuthentication,
): void {
  assertFreshAuthentication(user.jwt, auth.stepUpMaxAgeSeconds, (auth.now ?? Date.now)());
}
