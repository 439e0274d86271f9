/** A relying party (web site using QR login), durable store: auth_clients. */
export interface Client {
  id: string;
  name: string;
  /** PHC string (argon2id) of the client secret; never logged or returned. */
  secretHash: string;
  /** A requestId sent to auth-user-by-app must start with one of these. */
  requestIdPrefixes: string[];
  /** OpenID Connect redirect URIs (exact match); empty: not an OpenID Connect client. */
  redirectUris: string[];
  /** Where the provider's end-session endpoint may send the browser back to. */
  postLogoutRedirectUris: string[];
  /**
   * Where the provider posts a logout token when the user logs out at the provider (OpenID
   * Connect Back-Channel Logout 1.0); null: none.
   */
  backchannelLogoutUri: string | null;
  enabled: boolean;
  createdAt: number;
  updatedAt: number;
}

/** A client's OpenID Connect URIs (set together: `clients set-redirect-uris`). */
export type ClientUris = Pick<
  Client,
  'redirectUris' | 'postLogoutRedirectUris' | 'backchannelLogoutUri'
>;

export type NewClient = Omit<Client, 'enabled' | 'createdAt' | 'updatedAt' | keyof ClientUris> &
  Partial<ClientUris>;

export type ClientSummary = Omit<Client, 'secretHash'>;
