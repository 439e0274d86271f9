import { BaseError, ServiceUnavailableError } from '@itp/errors';
import type { UserStatusResponse } from '@itp/schemas';
import type { UserRepository } from './user-repository.js';

/**
 * May this user still act, and since when are its tokens good? (`POST /internal/v1/users/status`.)
 * Active = exists and enabled; an unknown id is simply inactive. `tokensValidAfter` is the user's
 * security epoch (docs/api.md §12): did-service refuses JWTs issued before it. A failing user store is a 503, never "inactive" or "active":
 * the caller must not guess.
 */
export class UserStatus {
  constructor(private readonly users: UserRepository) {}

  async statusOf(userId: string): Promise<UserStatusResponse> {
    let user;
    try {
      user = await this.users.findById(userId);
    } catch (err) {
      if (err instanceof BaseError && err.status < 500) throw err;
      throw new ServiceUnavailableError('The user store is unavailable; try again later', {
        cause: err,
      });
    }
    return {
      userId,
      active: user !== undefined && user.enabled,
      tokensValidAfter: user?.tokensValidAfter ?? 0,
    };
  }
}
