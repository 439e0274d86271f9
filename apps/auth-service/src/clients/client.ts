/** How a site's id_tokens are signed (`id_token_signed_response_alg`); ES256 unless registered otherwise. */
export const ID_TOKEN_SIGNING_ALGS = ['ES256', 'RS256'] as const;
export type IdTokenSigningAlg = (typeof ID_TOKEN_SIGNING_ALGS)[number];

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
  /** The id_token signing algorithm (OpenID Connect Dynamic Client Registration §2 names). */
  idTokenSigningAlg: IdTokenSigningAlg;
  enabled: boolean;
  createdAt: number;
  updatedAt: number;
}

/** A client's OpenID Connect URIs (set together: `clients set-redirect-uris`). */
export type ClientUris = Pick<
  Client,
  'redirectUris' | 'postLogoutRedirectUris' | 'backchannelLogoutUri'
>;

export type NewClient = Omit<
  Client,
  'enabled' | 'createdAt' | 'updatedAt' | 'idTokenSigningAlg' | keyof ClientUris
> &
  Partial<ClientUris> &
  Partial<Pick<Client, 'idTokenSigningAlg'>>;

export type ClientSummary = Omit<Client, 'secretHash'>;
