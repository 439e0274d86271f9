import type { Request } from 'express';
import { assertTokenCurrent, type JwtVerifier, type VerifiedJwt } from '@itp/auth-jwt';
import { bearerToken } from '@itp/service-kit';
import { UnauthorizedError } from '@itp/errors';
import type { User } from '../users/user.js';
import type { UserRepository } from '../users/user-repository.js';

/** The caller of a request with this service's own Bearer JWT. */
export interface BearerCaller {
  user: User;
  token: VerifiedJwt;
}

/**
 * The user of the request's Bearer JWT (this service's own), enabled, and the token not ended by
 * a reset, a disable or a logout everywhere (@itp/auth-jwt's one decision); else 401 (the
 * verifier's own generic refusal for a bad token, as everywhere else).
 */
export function bearerCaller(
  ownTokens: JwtVerifier,
  users: UserRepository,
): (req: Request) => Promise<BearerCaller> {
  return async (req) => {
    const bearer = bearerToken(req);
    if (!bearer) throw new UnauthorizedError('Authorization: Bearer <JWT> is required');
    const token = await ownTokens.verify(bearer);
    const user = await users.findById(token.userId);
    assertTokenCurrent(
      token,
      user && { active: user.enabled, tokensValidAfter: user.tokensValidAfter },
    );
    return { user: user!, token };
  };
}
