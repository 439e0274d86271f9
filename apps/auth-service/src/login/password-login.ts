import { UnauthorizedError } from '@itp/errors';
import type { JwtVerifier } from '@itp/auth-jwt';
import type { Logger } from '@itp/service-kit';
import type { LoginResult } from '@itp/schemas';
import type { PasswordHasher } from '../passwords/password-hasher.js';
import type { FailureCounter } from '../rate-limit/failure-counter.js';
import type { UserRepository } from '../users/user-repository.js';
import type { LoginResults } from './login-results.js';

/** The one answer for a wrong password, an unknown id and a disabled user (contract §2). */
export const INVALID_CREDENTIALS = 'Invalid id or password';

export interface PasswordLoginRequest {
  id: string;
  password: string;
  /** A JWT to extend (body `token` or `Authorization: Bearer`). */
  token?: string;
  clientIp: string;
}

export interface PasswordLoginDeps {
  users: UserRepository;
  hasher: PasswordHasher;
  results: LoginResults;
  /** Verifies this service's own tokens (the token to extend). */
  ownTokens: JwtVerifier;
  failuresPerId: FailureCounter;
  failuresPerIp: FailureCounter;
  logger: Logger;
}

/**
 * auth-user: id + password → login result with a new JWT.
 * - Unknown id, wrong password and disabled user: the same UnauthorizedError, after the same
 *   argon2 work (an unknown id is checked against a dummy hash).
 * - Rate limits: per client IP, failures only (check, then count a failure); per id, every
 *   attempt counts atomically before the password check and a success resets the count.
 * - Token extension: with valid credentials, a `token` must be a valid (unexpired) token of this
 *   service for the same user; the new token's exp is later than the old one's.
 */
export class PasswordLogin {
  constructor(private readonly deps: PasswordLoginDeps) {}

  async login(request: PasswordLoginRequest): Promise<LoginResult> {
    const { users, hasher, failuresPerId, failuresPerIp } = this.deps;
    await failuresPerIp.check(request.clientIp);
    await failuresPerId.take(request.id);
    const user = await users.findById(request.id);
    const passwordOk = user
      ? await hasher.verify(user.passwordHash, request.password)
      : await hasher.verifyDummy(request.password);
    if (!user || !passwordOk || !user.enabled) {
      await failuresPerIp.recordFailure(request.clientIp);
      throw new UnauthorizedError(INVALID_CREDENTIALS, {
        details: { reason: !user ? 'unknown id' : !passwordOk ? 'wrong password' : 'disabled' },
      });
    }
    await failuresPerId.reset(request.id);
    const notExpiringBefore = request.token ? await this.extensionFloor(request.token, user.id) : 0;
    if (hasher.needsRehash(user.passwordHash)) await this.rehash(user.id, request.password);
    return this.deps.results.resultFor(user, notExpiringBefore);
  }

  /** The earliest exp the extended token may have: one second after the old token's. */
  private async extensionFloor(token: string, userId: string): Promise<number> {
    let verified;
    try {
      verified = await this.deps.ownTokens.verify(token);
    } catch (err) {
      throw new UnauthorizedError('The token to extend is invalid or expired', { cause: err });
    }
    if (verified.userId !== userId) {
      throw new UnauthorizedError('The token to extend belongs to another user');
    }
    return (verified.claims.exp ?? 0) + 1;
  }

  private async rehash(userId: string, password: string): Promise<void> {
    try {
      const hash = await this.deps.hasher.hash(password);
      await this.deps.users.setPasswordHash(userId, hash, Date.now());
    } catch (err) {
      this.deps.logger.warn({ err, userId }, 'could not upgrade the password hash');
    }
  }
}
