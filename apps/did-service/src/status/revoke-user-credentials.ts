import type { RevokeUserCredentialsRequest, RevokeUserCredentialsResult } from '@itp/schemas';
import type { Logger } from '@itp/service-kit';
import type { StatusListStore } from '../db/status-lists.js';

/**
 * Ends what a reset leaves open for the user besides credentials: the user's open OpenID4VCI
 * offers made before `issuedBefore` (Unix seconds). Owned by oid4vci/ (wired in app.ts).
 */
export type EndUserOffers = (userId: string, issuedBefore: number) => Promise<void>;

/** 9999-12-31T23:59:59Z, the last instant of the four-digit-year ISO form. */
const LAST_ISO_SECOND = 253_402_300_799;

export interface RevokeUserCredentialsDeps {
  store: StatusListStore;
  /** Ends the user's open credential offers too, when given. */
  endOffers?: EndUserOffers | undefined;
  logger?: Logger;
}

/**
 * `POST /internal/v1/users/revoke-credentials` (auth-service after a password reset, docs/api.md
 * §12): sets the status bit of every credential issued for the user before `issuedBefore`
 * (Unix seconds; create-vc and OpenID4VCI alike), through the status lists as revoke-vc does
 * (each changed list gets a new revision; verify-vc, verify-vp and logins see it at once).
 * Idempotent: a second call revokes nothing more and answers `{ revoked: 0 }`. Credentials of
 * other users, and the user's credentials issued at or after `issuedBefore`, stay valid.
 */
export async function revokeUserCredentials(
  deps: RevokeUserCredentialsDeps,
  request: RevokeUserCredentialsRequest,
): Promise<RevokeUserCredentialsResult> {
  // ISO strings compare as instants up to year 9999 (later ones would be "+01…" and sort first).
  const seconds = Math.min(request.issuedBefore, LAST_ISO_SECOND);
  const before = new Date(seconds * 1000).toISOString();
  const revoked = await deps.store.revokeUserEntries(request.userId, before);
  await deps.endOffers?.(request.userId, request.issuedBefore);
  deps.logger?.info(
    { userId: request.userId, issuedBefore: request.issuedBefore, revoked },
    "user's credentials revoked",
  );
  return { revoked };
}
