import { BadRequestError, UnauthorizedError } from '@itp/errors';
import { verifiablePresentationSchema, type VerifyLoginVpResult } from '@itp/schemas';
import type { HolderBindings } from '../db/holder-bindings.js';
import { checkPresentation } from '../credentials/check-presentation.js';
import { credentialIssuedAt } from '../credentials/credential-issued-at.js';
import type { CredentialContext } from '../credentials/credential-context.js';

export interface LoginPresentationDeps extends CredentialContext {
  bindings: HolderBindings;
  /** Default freshness window (VP_LOGIN_MAX_AGE_SECONDS). */
  maxAgeSeconds: number;
  /** Allowed clock difference for a VP issued "in the future". Default 60 s. */
  clockSkewSeconds?: number;
  now?: () => number;
}

/** The VP was refused for login; the message says why (docs/api.md §2). */
export class LoginPresentationRefusedError extends UnauthorizedError {}

/**
 * The VP login rules (docs/api.md §2), the one implementation auth-user-with-vp relies on: the VP
 * verifies and is addressed to a verifier DID of this service; it is fresh (nbf within the
 * window) and has an id (jti, else nonce) for replay refusal; it holds at least one VC, each
 * verifying, issued by an issuer DID of this service and about the holder; all VCs name the same
 * user (`credentialSubject.sub`), who is the one the holder DID is bound to now. Replay refusal
 * itself (used once) is the caller's: it keeps `vpId` until `freshUntil`.
 */
export async function verifyLoginPresentation(
  deps: LoginPresentationDeps,
  vp: unknown,
  maxAgeSeconds = deps.maxAgeSeconds,
): Promise<VerifyLoginVpResult> {
  const parsed = verifiablePresentationSchema.safeParse(vp);
  if (!parsed.success) throw new BadRequestError('vp is not a verifiable presentation');
  const checked = await checkPresentation(deps, parsed.data.proof.jwt, vp);
  if (!checked.verified) {
    throw new LoginPresentationRefusedError(
      `VP refused (${checked.error.code}): ${checked.error.message}`,
    );
  }
  const { payload } = checked.result;
  const issuedAt = payload.nbf;
  const now = Math.floor((deps.now?.() ?? Date.now()) / 1000);
  if (typeof issuedAt !== 'number' || !Number.isInteger(issuedAt)) {
    throw new LoginPresentationRefusedError('VP refused (stale): it has no issuance time (nbf)');
  }
  if (issuedAt < now - maxAgeSeconds) {
    throw new LoginPresentationRefusedError(
      `VP refused (stale): issued more than ${maxAgeSeconds} s ago`,
    );
  }
  if (issuedAt > now + (deps.clockSkewSeconds ?? 60)) {
    throw new LoginPresentationRefusedError('VP refused (not_yet_valid): issued in the future');
  }
  const vpId = typeof payload.jti === 'string' && payload.jti ? payload.jti : payload.nonce;
  if (typeof vpId !== 'string' || vpId.length === 0 || vpId.length > 256) {
    throw new LoginPresentationRefusedError(
      'VP refused (missing_id): it carries no id (jti or nonce)',
    );
  }
  if (checked.credentials.length === 0) {
    throw new LoginPresentationRefusedError('VP refused (no_credentials): it holds no credential');
  }
  const users = new Set(
    checked.credentials.map(
      (c) =>
        (c.payload.vc as { credentialSubject?: { sub?: unknown } } | undefined)?.credentialSubject
          ?.sub,
    ),
  );
  const [userId] = [...users];
  if (users.size !== 1 || typeof userId !== 'string' || userId.length === 0) {
    throw new LoginPresentationRefusedError(
      'VP refused (user_mismatch): its credentials do not name one user',
    );
  }
  // The holder DID must be bound to that user now (docs/api.md §3: only create-did with the
  // secretKey and the user's bearer binds): a VC issued before a re-binding, or for a DID that is
  // not bound, logs nobody in.
  const bound = await deps.bindings.boundUser(checked.holder);
  if (bound !== userId) {
    throw new LoginPresentationRefusedError(
      'VP refused (user_mismatch): the holder DID is not bound to the user its credentials name',
    );
  }
  return {
    userId,
    holder: checked.holder,
    verifier: checked.verifier,
    vpId,
    issuedAt,
    freshUntil: issuedAt + maxAgeSeconds,
    // auth-service refuses a credential issued before the user's last reset (docs/api.md §12).
    credentialIssuedAt: credentialIssuedAt(checked.credentials) ?? 0,
  };
}
