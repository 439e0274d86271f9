import { UnauthorizedError } from '@itp/errors';
import type { LoginResult } from '@itp/schemas';
import type { TokenIssuer } from '../jwt/token-issuer.js';
import type { User } from '../users/user.js';
import type { UserRepository } from '../users/user-repository.js';

/** Issues the login result of docs/api.md §2.1 (a new JWT plus the user's data). */
export class LoginResults {
  constructor(
    private readonly users: UserRepository,
    private readonly tokens: TokenIssuer,
  ) {}

  /**
   * The login result for a user authenticated by other means (a verifiable presentation, an
   * approved web-site login). UnauthorizedError when the user does not exist or is disabled.
   */
  async issueLoginResult(userId: string): Promise<LoginResult> {
    const user = await this.users.findById(userId);
    if (!user || !user.enabled) {
      throw new UnauthorizedError('The user does not exist or is disabled');
    }
    return this.resultFor(user);
  }

  /** The login result for a user already loaded and checked (password login). */
  async resultFor(user: User, notExpiringBefore = 0): Promise<LoginResult> {
    const { token } = await this.tokens.issue(user.id, notExpiringBefore);
    return { token, userId: user.id, name: user.name, telNo: user.telNo, email: user.email };
  }
}
