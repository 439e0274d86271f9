import type { Client, ClientUris, IdTokenSigningAlg, NewClient } from './client.js';

/** The relying-party port (adapter: SqlClientRepository). */
export interface ClientRepository {
  findById(id: string): Promise<Client | undefined>;
  /** Inserts an enabled client; false (and nothing changed) when the id exists already. */
  insertIfAbsent(client: NewClient, now: number): Promise<boolean>;
  list(): Promise<Client[]>;
  /** False when there is no such client. */
  setEnabled(id: string, enabled: boolean, now: number): Promise<boolean>;
  /** Replaces the OpenID Connect URIs; false when there is no such client. */
  setRedirectUris(id: string, uris: ClientUris, now: number): Promise<boolean>;
  /** Sets how the site's id_tokens are signed; false when there is no such client. */
  setIdTokenSigningAlg(id: string, alg: IdTokenSigningAlg, now: number): Promise<boolean>;
  /** Replaces the requestId prefixes; false when there is no such client. */
  setRequestIdPrefixes(id: string, prefixes: string[], now: number): Promise<boolean>;
}
