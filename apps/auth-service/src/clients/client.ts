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
  enabled: boolean;
  createdAt: number;
  updatedAt: number;
}

export type NewClient = Omit<
  Client,
  'enabled' | 'createdAt' | 'updatedAt' | 'redirectUris' | 'postLogoutRedirectUris'
> &
  Partial<Pick<Client, 'redirectUris' | 'postLogoutRedirectUris'>>;

export type ClientSummary = Omit<Client, 'secretHash'>;
