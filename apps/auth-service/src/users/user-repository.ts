import type { NewUser, User } from './user.js';

/** The users port (adapter: SqlUserRepository). */
export interface UserRepository {
  findById(id: string): Promise<User | undefined>;
  /** Inserts an enabled user; false (and nothing changed) when the id exists already. */
  insertIfAbsent(user: NewUser, now: number): Promise<boolean>;
  list(): Promise<User[]>;
  /** False when there is no such user. */
  setEnabled(id: string, enabled: boolean, now: number): Promise<boolean>;
  /**
   * Replaces the password hash; `now` also becomes updatedAt (a reset: OpenID Connect sessions
   * and tokens from before it end). Without `now` (the same password rehashed with newer
   * parameters at a login) updatedAt stays. False when there is no such user.
   */
  setPasswordHash(id: string, passwordHash: string, now?: number): Promise<boolean>;
}
