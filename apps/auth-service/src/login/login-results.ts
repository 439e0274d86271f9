import { UnauthorizedError } from '@itp/errors';
import type { LoginResult } from '@itp/schemas';
import type { Logger } from '@itp/service-kit';
import type { TokenIssuer } from '../jwt/token-issuer.js';
import { assertMayLogIn, type LoginEvidence } from '../users/account-rules.js';
import type { User } from '../users/user.js';
import type { UserRepository } from '../users/user-repository.js';
import type { LoginHistory, Amr } from './login-history.js';
import type { Authenticated } from './login-method.js';

export interface LoginResultsDeps {
  users: UserRepository;
  tokens: TokenIssuer;
  /** Where the last login per method is kept (`users show`); a failure there costs no login. */
  history?: LoginHistory;
  logger?: Logger;
  clock?: () => number;
}

/**
 * The one place a login method's user becomes a login result (ADR 0028): the login result of
 * docs/api.md §2.1 (a new JWT plus the user's data) for the REST routes, the admitted user for
 * the OpenID Connect provider's login (which issues its own tokens); either way the login is
 * recorded per `amr`.
 */
export class LoginResults {
  private readonly clock: () => number;

  constructor(private readonly deps: LoginResultsDeps) {
    this.clock = deps.clock ?? Date.now;
  }

  /** The login result of what a login method authenticated (attemptLogin). */
  async complete(login: Authenticated, notExpiringBefore = 0): Promise<LoginResult> {
    return login.user
      ? this.resultFor(login.user, login.amr, notExpiringBefore)
      : this.issueLoginResult(login.userId, login.amr, login.evidence);
  }

  /**
   * What a login method authenticated, for the OpenID Connect provider's login: the user checked
   * (when the method did not load it) and the login recorded.
   */
  async admitLogin(login: Authenticated): Promise<User> {
    if (!login.user) return this.admit(login.userId, login.amr, login.evidence);
    await this.remember(login.user.id, login.amr);
    return login.user;
  }

  /**
   * The login result for a user authenticated by other means (a verifiable presentation, an
   * approved web-site login). UnauthorizedError when the user does not exist or is disabled,
   * and when the evidence predates the account's last reset (docs/api.md §12): a credential
   * issued before it, an approval given before it.
   */
  async issueLoginResult(
    userId: string,
    method: Amr,
    evidence: LoginEvidence = {},
  ): Promise<LoginResult> {
    return this.token(await this.admit(userId, method, evidence));
  }

  /**
   * issueLoginResult's checks without a token (the OpenID Connect provider logs the user in
   * itself): the user, enabled, the evidence not older than the account's epochs; the login is
   * recorded.
   */
  async admit(userId: string, method: Amr, evidence: LoginEvidence = {}): Promise<User> {
    const user = await this.deps.users.findById(userId);
    if (!user || !user.enabled) {
      throw new UnauthorizedError('The user does not exist or is disabled');
    }
    assertMayLogIn(user, evidence);
    await this.remember(user.id, method);
    return user;
  }

  /** The login result for a user already loaded and checked (password login, SIWE). */
  async resultFor(user: User, method: Amr, notExpiringBefore = 0): Promise<LoginResult> {
    await this.remember(user.id, method);
    return this.token(user, notExpiringBefore);
  }

  private async token(user: User, notExpiringBefore = 0): Promise<LoginResult> {
    const { token } = await this.deps.tokens.issue(user, notExpiringBefore);
    return { token, userId: user.id, name: user.name, telNo: user.telNo, email: user.email };
  }

  /** Records a login by `method` (also the OpenID Connect provider's, which issues no JWT). */
  async remember(userId: string, method: Amr): Promise<void> {
    try {
      await this.deps.history?.record(userId, method, this.clock());
    } catch (err) {
      this.deps.logger?.warn({ err, userId, method }, 'could not record the last login');
    }
  }
}
