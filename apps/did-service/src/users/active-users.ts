import { ServiceUnavailableError } from '@itp/errors';
import { DisabledUserError } from '../errors.js';
import type { Logger } from '@itp/service-kit';
import type { UserStatusPort } from './user-status-port.js';

export interface ActiveUsersOptions {
  /** How long an answer is used without asking again (a disabled user is refused this soon). */
  cacheMs: number;
  /** How old a cached answer may be when auth-service cannot be asked (then 503). */
  staleMs?: number;
  /** Most users remembered. */
  max?: number;
  now?: () => number;
  logger?: Logger;
}

interface Entry {
  active: boolean;
  at: number;
}

/**
 * Writes that act for a user (create-did with a bearer, create-vc, create-vp) ask this first: a
 * user disabled by an operator is refused within `cacheMs` although the JWT is still valid.
 * Answers are cached in process; when auth-service cannot answer, an answer up to `staleMs` old
 * is used, else 503 (never a 500, and never "allowed" without an answer).
 */
export class ActiveUsers {
  private readonly cache = new Map<string, Entry>();
  private readonly now: () => number;

  constructor(
    private readonly status: UserStatusPort,
    private readonly options: ActiveUsersOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  async assertActive(userId: string): Promise<void> {
    if (!(await this.isActive(userId))) throw new DisabledUserError();
  }

  private async isActive(userId: string): Promise<boolean> {
    const cached = this.cache.get(userId);
    const now = this.now();
    if (cached && now - cached.at < this.options.cacheMs) return cached.active;
    try {
      const active = await this.status.isActive(userId);
      this.remember(userId, { active, at: now });
      return active;
    } catch (err) {
      const staleMs = this.options.staleMs ?? 60_000;
      if (cached && now - cached.at < staleMs) {
        this.options.logger?.warn({ err }, 'user status unavailable: using a recent answer');
        return cached.active;
      }
      // Whatever went wrong between the services (down, a wrong INTERNAL_TOKEN_DID_TO_AUTH, an odd
      // answer) is not the caller's fault and names nothing internal: 503.
      this.options.logger?.warn({ err }, 'user status unavailable and no recent answer');
      throw new ServiceUnavailableError('Cannot check the user with auth-service; try again', {
        cause: err,
      });
    }
  }

  private remember(userId: string, entry: Entry): void {
    this.cache.delete(userId);
    this.cache.set(userId, entry);
    const max = this.options.max ?? 10_000;
    while (this.cache.size > max) {
      const oldest = this.cache.keys().next().value;
      if (oldest === undefined) break;
      this.cache.delete(oldest);
    }
  }
}
