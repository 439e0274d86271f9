import type { PresentationVpVerifyRequest, PresentationVpVerifyResult } from '@itp/schemas';
import type { CredentialContext } from '../credentials/credential-context.js';
import type { VerificationSuccess } from '../credentials/verification.js';
import { canonicalDid } from '../dids/did-ethr.js';
import { checkOid4vpVp } from './check-oid4vp-vp.js';

/** What the site may learn of one VC: its issuer, types and subject (never its JWT). */
function presented(credential: VerificationSuccess) {
  // did-jwt-vc's normalized credential: the subject's id is the JWT's `sub` there.
  const vc = (credential.verifiableCredential ?? credential.payload.vc ?? {}) as {
    type?: unknown;
    credentialSubject?: unknown;
  };
  const subject = vc.credentialSubject;
  return {
    issuer: canonicalDid(credential.issuer),
    type: Array.isArray(vc.type) ? vc.type.filter((t): t is string => typeof t === 'string') : [],
    credentialSubject:
      typeof subject === 'object' && subject !== null && !Array.isArray(subject)
        ? (subject as Record<string, unknown>)
        : {},
  };
}

/**
 * `POST /internal/v1/presentation-requests/verify-vp`: one VP JWT of a wallet's answer to an
 * auth-service presentation request (`jwt_vc_json`, contract §14) checked as a login's
 * (checkOid4vpVp: aud = the request's client id, its nonce, the holder's signature, every VC of
 * an issuer DID of this service, unrevoked, about the holder); answers each VC's issuer, types
 * and credentialSubject, for auth-service to match against the site's DCQL query.
 */
export async function verifyPresentationVp(
  ctx: CredentialContext,
  request: PresentationVpVerifyRequest,
): Promise<PresentationVpVerifyResult> {
  const checked = await checkOid4vpVp(ctx, request.vp, request);
  if ('verified' in checked) return checked;
  return {
    verified: true,
    holder: checked.holder,
    credentials: checked.credentials.map(presented),
  };
}
