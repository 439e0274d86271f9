/** A relying party (web site using QR login), durable store: auth_clients. */
export interface Client {
  id: string;
  name: string;
  /** PHC string (argon2id) of the client secret; never logged or returned. */
  secretHash: string;
  /** A requestId sent to auth-user-by-app must start with one of these. */
  requestIdPrefixes: string[];
  enabled: boolean;
  createdAt: number;
  updatedAt: number;
}

export type NewClient = Omit<Client, 'enabled' | 'createdAt' | 'updatedAt'>;

export type ClientSummary = Omit<Client, 'secretHash'>;
