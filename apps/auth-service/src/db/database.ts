import type { Generated } from 'kysely';

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
  /**
   * Epoch seconds (migration 0006): platform JWTs issued before it are refused (a reset, a
   * disable, a logout everywhere moves it; docs/api.md §12).
   */
  tokens_valid_after: number;
  /** Epoch seconds (0006): credentials issued before it no longer log in (a reset). */
  keys_valid_after: number;
}

export interface AuthClientsTable {
  id: string;
  name: string;
  /** PHC string (argon2id) of the client secret. */
  secret_hash: string;
  /** JSON array of the allowed requestId prefixes. */
  request_id_prefixes: string;
  /** JSON array: the OpenID Connect redirect URIs (exact match); [] = no OIDC logins. */
  redirect_uris: string;
  /** JSON array: where end-session may send the browser afterwards. */
  post_logout_redirect_uris: string;
  /** Back-Channel Logout URI (migration 0005); null: none. */
  backchannel_logout_uri: string | null;
  /** `ES256` or `RS256` (migration 0008); ES256 for every earlier client. */
  id_token_signing_alg: Generated<string>;
  enabled: number;
  created_at: number;
  updated_at: number;
}

/**
 * One-time marks that must outlive Redis (docs/api.md §2, §11), @itp/stores' SqlOneTimeMarks: a
 * VP used for a login (the SHA-256 of holder and VP id) until the VP is stale anyway, a Sign-In
 * with Ethereum nonce (of `siwe-nonce` and the nonce) until it expires.
 */
export interface AuthVpUsesTable {
  id_hash: string;
  /** Epoch ms: after this the VP is too old to log in; the row may go. */
  expires_at: number;
}

/**
 * A web-site login request approved by the user application (auth-user-with-vp): its result is
 * handed out once, also after Redis lost the request (consumed_at set on hand-out or cancel).
 */
export interface AuthLoginApprovalsTable {
  /** The request's id (the decimal part of the requestId). */
  id: string;
  client_id: string;
  prefix: string;
  user_id: string;
  /** Epoch ms: the result is collectable until then (waitTime + grace). */
  expires_at: number;
  /** Epoch ms when handed out or cancelled; null while collectable. */
  consumed_at: number | null;
  /** How it was approved: `app` (auth-user-with-vp) or `vp` (OpenID4VP); null before 0003. */
  method: string | null;
  /** Epoch ms of the approval (migration 0006; null before it). */
  approved_at: number | null;
}

/** The last login of a user per method (`pwd`, `app`, `vp`, `siwe`; docs/api.md §12). */
export interface AuthUserLoginsTable {
  user_id: string;
  method: string;
  /** Epoch ms. */
  last_at: number;
}

/**
 * What a password reset asks did-service to revoke: every credential issued for the user before
 * `issued_before` (epoch seconds). Delivered by auth-service until did-service acknowledges it
 * (`delivered_at`); one row per user (a later reset moves `issued_before` forward).
 */
export interface AuthCredentialRevocationsTable {
  user_id: string;
  issued_before: number;
  /** Epoch ms. */
  requested_at: number;
  /** Epoch ms; null until did-service acknowledged it. */
  delivered_at: number | null;
}

/** Sign-In with Ethereum (docs/api.md §11): the user each address logs in as. */
export interface AuthLinkedAddressesTable {
  /** Lower-case 0x address: one address, one user. */
  address: string;
  user_id: string;
  /** Epoch ms. */
  linked_at: number;
}

/**
 * One-time marks (migration 0007, @itp/stores' SqlOneTimeMarks): used OpenID Connect codes and
 * refresh tokens, ended grants, answered OpenID4VP sessions; the SHA-256 of a namespaced key.
 */
export interface AuthOneTimeMarksTable {
  id_hash: string;
  /** Epoch ms: the mark is kept until then (plus an hour for clock skew). */
  expires_at: number;
}

/**
 * Durable copies of OpenID Connect records (migration 0007): refresh tokens (under their SHA-256,
 * without the token) and the grants with offline_access, so that they survive a Redis that went
 * back in time or restarted empty (docs/adr/0024).
 */
export interface AuthOidcRecordsTable {
  /** `RefreshToken` or `Grant`. */
  model: string;
  /** A refresh token's SHA-256 (hex), a grant's id. */
  id: string;
  grant_id: string | null;
  account_id: string | null;
  /** The record as oidc-provider stores it (JSON), without a token's value. */
  payload: string;
  /** Epoch ms. */
  expires_at: number;
}

export interface AuthDatabase {
  auth_users: AuthUsersTable;
  auth_clients: AuthClientsTable;
  auth_vp_uses: AuthVpUsesTable;
  auth_one_time_marks: AuthOneTimeMarksTable;
  auth_oidc_records: AuthOidcRecordsTable;
  auth_login_approvals: AuthLoginApprovalsTable;
  auth_linked_addresses: AuthLinkedAddressesTable;
  auth_user_logins: AuthUserLoginsTable;
  auth_credential_revocations: AuthCredentialRevocationsTable;
  auth_passkeys: AuthPasskeysTable;
}

/** A user's passkey (migration 0009; docs/api.md §13): public key and counter, nothing secret. */
export interface AuthPasskeysTable {
  /** The credential id, base64url. */
  id: string;
  user_id: string;
  name: string;
  /** The COSE public key, base64url. */
  public_key: string;
  counter: number;
  /** JSON array of transports. */
  transports: string;
  device_type: string;
  backed_up: number;
  created_at: number;
  last_used_at: number | null;
}
