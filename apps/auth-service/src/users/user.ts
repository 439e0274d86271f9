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
}

export type NewUser = Omit<User, 'enabled' | 'createdAt' | 'updatedAt'>;

/** What may leave the service about a user (CLI listings): everything but the hash. */
export type UserSummary = Omit<User, 'passwordHash'>;
