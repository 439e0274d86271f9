import { assertTokenCurrent, type AccountEpoch, type VerifiedJwt } from '@itp/auth-jwt';
import { ServiceUnavailableError } from '@itp/errors';
import { DisabledUserError } from '../errors.js';
import type { Logger } from '@itp/service-kit';
import type { UserStatusPort } from './user-status-port.js';

export interface ActiveUsersOptions {
  /**
   * How long an answer is used without asking again: a disabled user, and a JWT ended by a
   * reset, a disable or a logout everywhere, are refused this soon.
   */
  cacheMs: number;
  /** How old a cached answer may be when auth-service cannot be asked (then 503). */
  staleMs?: number;
  /** Most users remembered. */
  max?: number;
  now?: () => number;
  logger?: Logger;
}

interface Entry {
  epoch: AccountEpoch;
  at: number;
}

/**
 * The users' AccountEpoch as auth-service's internal `users/status` answers it (docs/api.md §12):
 * whether the user may act at all, and the instant before which the user's JWTs were ended.
 * Every route that acts for a user with a JWT asks this first (http/authenticate.ts): a user
 * disabled by an operator, or a token ended by a reset, is refused within `cacheMs` although
 * the JWT itself still verifies. Answers are cached in process; when auth-service cannot answer,
 * an answer up to `staleMs` old is used, else 503 (never a 500, and never "allowed" without an
 * answer).
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

  /** 401 (DisabledUserError) for a disabled or removed user. */
  async assertActive(userId: string): Promise<void> {
    if (!(await this.epochOf(userId)).active) throw new DisabledUserError();
  }

  /**
   * The one decision on a user's JWT (@itp/auth-jwt's assertTokenCurrent): 401 DisabledUserError
   * for a disabled or removed user, 401 TOKEN_ENDED_MESSAGE for a token issued before the user's
   * `tokensValidAfter`.
   */
  async assertTokenCurrent(verified: VerifiedJwt): Promise<void> {
    const epoch = await this.epochOf(verified.userId);
    if (!epoch.active) throw new DisabledUserError();
    assertTokenCurrent(verified, epoch);
  }

  /**
   * The user's AccountEpoch (cached for `cacheMs`; a recent answer while auth-service is
   * unavailable, else 503). OpenID4VCI refuses offers made before `tokensValidAfter` with it.
   */
  async epochOf(userId: string): Promise<AccountEpoch> {
    const cached = this.cache.get(userId);
    const now = this.now();
    if (cached && now - cached.at < this.options.cacheMs) return cached.epoch;
    try {
      const { active, tokensValidAfter } = await this.status.epochOf(userId);
      const epoch: AccountEpoch = { active, tokensValidAfter };
      this.remember(userId, { epoch, at: now });
      return epoch;
    } catch (err) {
      const staleMs = this.options.staleMs ?? 60_000;
      if (cached && now - cached.at < staleMs) {
        this.options.logger?.warn({ err }, 'user status unavailable: using a recent answer');
        return cached.epoch;
      }
      // Whatever went wrong between the services (down, a wrong INTERNAL_TOKEN_DID_TO_AUTH, an odd
      // answer) is not the caller's fault and names nothing internal: 503.
      this.options.logger?.warn({ err }, 'user status unavailable and no recent answer');
      throw new ServiceUnavailableError('Cannot check the user with auth-service; try again', {
        cause: err,
      });
    }
  }

  /**
   * The user's AccountEpoch as auth-service answers it now — never a cached one, and 503 when it
   * cannot answer. What hands out a new way in (OpenID4VCI's token and credential endpoints)
   * asks this: a credential redeemed in the seconds after a reset, on an answer cached before
   * it, would be issued after the reset and survive it. The answer refreshes the cache.
   */
  async currentEpochOf(userId: string): Promise<AccountEpoch> {
    let answer: AccountEpoch;
    try {
      answer = await this.status.epochOf(userId);
    } catch (err) {
      this.options.logger?.warn({ err }, 'user status unavailable for a fresh answer');
      throw new ServiceUnavailableError('Cannot check the user with auth-service; try again', {
        cause: err,
      });
    }
    const epoch: AccountEpoch = {
      active: answer.active,
      tokensValidAfter: answer.tokensValidAfter,
    };
    this.remember(userId, { epoch, at: this.now() });
    return epoch;
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
