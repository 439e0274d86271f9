import type { Request } from 'express';
import { bearerToken, type JwtVerifier } from '@itp/auth-jwt';
import { UnauthorizedError } from '@itp/errors';

/** The user of a required `Authorization: Bearer <JWT>` (auth-service's JWT); 401 otherwise. */
export async function requireUser(req: Request, verifier: JwtVerifier): Promise<string> {
  const token = bearerToken(req);
  if (token === undefined) throw new UnauthorizedError('Authorization: Bearer <JWT> is required');
  return (await verifier.verify(token)).userId;
}

/** The user of an optional bearer JWT: none sent → undefined; sent but invalid → 401. */
export async function optionalUser(
  req: Request,
  verifier: JwtVerifier,
): Promise<string | undefined> {
  if (req.headers.authorization === undefined) return undefined;
  return requireUser(req, verifier);
}
