/** A user of the platform (durable store: auth_users). */
export interface User {
  id: string;
  name: string;
  telNo: string | null;
  email: string;
  /** PHC string; never logged, never returned by the API or the CLI. */
  passwordHash: string;
  enabled: boolean;
  /** Epoch milliseconds. */
  createdAt: number;
  updatedAt: number;
  /**
   * Epoch seconds: platform JWTs issued before it are refused (docs/api.md §12; moved by a
   * password reset, a disable and a logout everywhere). 0: never moved.
   */
  tokensValidAfter: number;
  /** Epoch seconds: credentials issued before it no longer log in (a reset without --keep-keys). */
  keysValidAfter: number;
}

export type NewUser = Omit<
  User,
  'enabled' | 'createdAt' | 'updatedAt' | 'tokensValidAfter' | 'keysValidAfter'
>;

/** What may leave the service about a user (CLI listings): everything but the hash. */
export type UserSummary = Omit<User, 'passwordHash'>;
