/** Tables of auth-service (all prefixed `auth_`; migrations in ./migrations.ts). */
export interface AuthUsersTable {
  id: string;
  name: string;
  tel_no: string | null;
  email: string;
  /** PHC string (argon2id). */
  password_hash: string;
  /** 1 enabled, 0 disabled (an integer on both dialects). */
  enabled: number;
  /** Epoch milliseconds. */
  created_at: number;
  updated_at: number;
}

export interface AuthClientsTable {
  id: string;
  name: string;
  /** PHC string (argon2id) of the client secret. */
  secret_hash: string;
  /** JSON array of the allowed requestId prefixes. */
  request_id_prefixes: string;
  enabled: number;
  created_at: number;
  updated_at: number;
}

export interface AuthDatabase {
  auth_users: AuthUsersTable;
  auth_clients: AuthClientsTable;
}
