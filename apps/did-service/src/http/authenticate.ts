import type { Request } from 'express';
import type { JwtVerifier } from '@itp/auth-jwt';
import { bearerToken } from '@itp/service-kit';
import { UnauthorizedError } from '@itp/errors';
import type { ActiveUsers } from '../users/active-users.js';

/** How the DID API knows who acts: auth-service's JWT, and that its user is still active. */
export interface UserAuthentication {
  verifier: JwtVerifier;
  activeUsers: ActiveUsers;
}

/**
 * The user of a required `Authorization: Bearer <JWT>` (auth-service's JWT); 401 without one,
 * for an invalid one, and for a user disabled since the token was issued (within seconds).
 */
export async function requireUser(req: Request, auth: UserAuthentication): Promise<string> {
  const token = bearerToken(req);
  if (token === undefined) throw new UnauthorizedError('Authorization: Bearer <JWT> is required');
  const { userId } = await auth.verifier.verify(token);
  await auth.activeUsers.assertActive(userId);
  return userId;
}

/** The user of an optional bearer JWT: none sent → undefined; sent but invalid → 401. */
export async function optionalUser(
  req: Request,
  auth: UserAuthentication,
): Promise<string | undefined> {
  if (req.headers.authorization === undefined) return undefined;
  return requireUser(req, auth);
}
