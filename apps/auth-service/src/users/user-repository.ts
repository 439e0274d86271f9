import type { NewUser, User } from './user.js';

/** The users port (adapter: SqlUserRepository). */
export interface UserRepository {
  findById(id: string): Promise<User | undefined>;
  /** Inserts an enabled user; false (and nothing changed) when the id exists already. */
  insertIfAbsent(user: NewUser, now: number): Promise<boolean>;
  list(): Promise<User[]>;
  /**
   * False when there is no such user. A disable also moves the user's token epoch (every
   * platform JWT from before it stays refused after a later enable).
   */
  setEnabled(id: string, enabled: boolean, now: number): Promise<boolean>;
  /**
   * Replaces the password hash. With `reset` (an operator's reset): updatedAt becomes `now`
   * (OpenID Connect sessions and tokens from before it end) and the token epoch moves past it
   * (platform JWTs from before it are refused), and with `endKeys` the key epoch too
   * (credentials issued before it no longer log in) — in one statement. Without (the same
   * password rehashed with newer parameters at a login) nothing else changes. False when there
   * is no such user.
   */
  setPasswordHash(
    id: string,
    passwordHash: string,
    reset?: { now: number; endKeys: boolean },
  ): Promise<boolean>;
  /**
   * Logout everywhere: moves the token epoch past `now` (and updatedAt: OpenID Connect sessions
   * end). The user as it now is; undefined when there is no such user.
   */
  endTokens(id: string, now: number): Promise<User | undefined>;
}
