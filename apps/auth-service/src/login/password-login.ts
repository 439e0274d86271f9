import { BaseError, ServiceUnavailableError, UnauthorizedError } from '@itp/errors';
import type { JwtVerifier } from '@itp/auth-jwt';
import type { Logger } from '@itp/service-kit';
import { isStoreUnavailable, toStoreError } from '@itp/stores';
import type { LoginResult } from '@itp/schemas';
import type { PasswordHasher } from '../passwords/password-hasher.js';
import type { FailureBackoff } from '../rate-limit/failure-backoff.js';
import { clientGroup } from '@itp/service-kit';
import type { FailureCounter } from '../rate-limit/failure-counter.js';
import type { KnownClients } from '../rate-limit/known-clients.js';
import type { User } from '../users/user.js';
import type { UserRepository } from '../users/user-repository.js';
import type { LoginResults } from './login-results.js';
import { attemptLogin } from './attempt-login.js';
import type { Authenticated, FailureLimit, LoginMethod } from './login-method.js';

/** The one answer for a wrong password, an unknown id and a disabled user (docs/api.md §2). */
export const INVALID_CREDENTIALS = 'Invalid id or password';

/** What a password login checks: the user id and password, from a client address. */
export interface PasswordCredentials {
  id: string;
  password: string;
  clientIp: string;
}

export interface PasswordLoginRequest extends PasswordCredentials {
  /** A JWT to extend (body `token` or `Authorization: Bearer`). */
  token?: string;
}

export interface PasswordLoginDeps {
  users: UserRepository;
  hasher: PasswordHasher;
  results: LoginResults;
  /** Verifies this service's own tokens (the token to extend). */
  ownTokens: JwtVerifier;
  /** Per (user id, client address): LOGIN_MAX_FAILURES_PER_ID failures, then 429 for the window. */
  failuresPerIdAndIp: FailureCounter;
  /** Per user id across all addresses: growing short holds, never a wall. */
  failuresPerId: FailureBackoff;
  /** Per client address across all ids: LOGIN_MAX_FAILURES_PER_IP. */
  failuresPerIp: FailureCounter;
  /** Clients that logged in as a user before: never held by that user's per-id hold. */
  knownClients: KnownClients;
  logger: Logger;
}

/**
 * auth-user: id + password → login result with a new JWT.
 * - Unknown id, wrong password and disabled user: the same UnauthorizedError, after the same
 *   argon2 work (an unknown id is checked against a dummy hash).
 * - Rate limits (README "Rate limits"): all are checked before the work and only real
 *   credential failures are counted, after the check. Client addresses are grouped (IPv6 by
 *   /64). Per (id, client) and per client: a wall for the window. Per id across clients: short
 *   growing holds (at most LOGIN_ID_MAX_DELAY_SECONDS) that apply only to clients that have
 *   failed for the id and never logged in as it, so nobody can keep the owner out by failing for
 *   them. A success resets the per-(id, client) count and marks the client known for the id
 *   (30 days). A failing user store is a 503 and counts nothing.
 * - Token extension: with valid credentials, a `token` must be a valid (unexpired) token of this
 *   service for the same user; the new token's exp is later than the old one's.
 */
export class PasswordLogin implements LoginMethod<
  PasswordCredentials,
  Authenticated & { user: User }
> {
  readonly id = 'password';
  readonly amr = 'pwd';

  constructor(private readonly deps: PasswordLoginDeps) {}

  async login(request: PasswordLoginRequest): Promise<LoginResult> {
    const { user } = await attemptLogin(this, request);
    const notExpiringBefore = request.token ? await this.extensionFloor(request.token, user.id) : 0;
    return this.deps.results.resultFor(user, 'pwd', notExpiringBefore);
  }

  /**
   * Per client address (IPv4 one by one, IPv6 by /64: one subscriber's network), then per (id,
   * client address), which a success clears. The per-id count is not reset: the owner's login
   * must not hand an attacker a fresh allowance of free failures (its hold never applies to the
   * owner's clients anyway).
   */
  async failureLimits(request: PasswordCredentials): Promise<readonly FailureLimit[]> {
    const client = clientGroup(request.clientIp);
    return [
      { counter: this.deps.failuresPerIp, subject: client },
      {
        counter: this.deps.failuresPerIdAndIp,
        subject: pairOf(request.id, client),
        resetOnSuccess: true,
      },
    ];
  }

  /**
   * The credential check of auth-user, without issuing a token (run by attemptLogin under
   * failureLimits): the user (enabled, right password), else the same UnauthorizedError for
   * every reason. The OpenID Connect login page logs in with it too.
   */
  async authenticate(request: PasswordCredentials): Promise<Authenticated & { user: User }> {
    const { hasher, failuresPerIdAndIp, failuresPerId, knownClients } = this.deps;
    const client = clientGroup(request.clientIp);
    // The per-id hold slows down whoever fails for this id, never its owner: it applies only to a
    // client that has failed for the id in the window and has not logged in as it before. A
    // client that has not failed for the id gets its password checked (a wrong one is counted,
    // and from then on the hold applies to it too).
    const [failedHere, known] = await Promise.all([
      failuresPerIdAndIp.failures(pairOf(request.id, client)),
      knownClients.has(request.id, client),
    ]);
    if (failedHere > 0 && !known) await failuresPerId.check(request.id);
    const user = await this.findUser(request.id);
    const passwordOk = user
      ? await hasher.verify(user.passwordHash, request.password)
      : await hasher.verifyDummy(request.password);
    if (!user || !passwordOk || !user.enabled) {
      await failuresPerId.recordFailure(request.id);
      throw new UnauthorizedError(INVALID_CREDENTIALS, {
        details: { reason: !user ? 'unknown id' : !passwordOk ? 'wrong password' : 'disabled' },
      });
    }
    await knownClients.remember(user.id, client);
    if (hasher.needsRehash(user.passwordHash)) await this.rehash(user.id, request.password);
    return { user, userId: user.id, amr: 'pwd' };
  }

  /**
   * The user, or a 503 when the store is unavailable (not a credential failure: nothing is
   * counted). Any other failure is not an outage and is never answered as one: it passes on (a
   * 500 with the request id, the detail in the log).
   */
  private async findUser(id: string): Promise<User | undefined> {
    try {
      return await this.deps.users.findById(id);
    } catch (err) {
      if (err instanceof BaseError && err.status < 500) throw err;
      if (!isStoreUnavailable(toStoreError('database', err))) throw err;
      throw new ServiceUnavailableError('Login is unavailable right now; try again later', {
        cause: err,
      });
    }
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
      // The same password: updatedAt stays (it would end the user's OpenID Connect sessions).
      await this.deps.users.setPasswordHash(userId, hash);
    } catch (err) {
      this.deps.logger.warn({ err, userId }, 'could not upgrade the password hash');
    }
  }
}

/** The per-(id, client address) subject. */
function pairOf(id: string, client: string): string {
  return `${id}\u0000${client}`;
}
