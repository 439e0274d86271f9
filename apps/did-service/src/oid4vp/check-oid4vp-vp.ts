import { decodeJWT } from 'did-jwt';
import { checkPresentedCredentials, verifyHolderVp } from '../credentials/check-presentation.js';
import type { CredentialContext } from '../credentials/credential-context.js';
import {
  failure,
  type VerificationFailure,
  type VerificationSuccess,
} from '../credentials/verification.js';
import { canonicalDid } from '../dids/did-ethr.js';

/** A VP JWT of an OpenID4VP answer, checked: its holder and each VC inside, verified. */
export interface CheckedOid4vpVp {
  /** The holder DID (the VP's JWT `iss`), canonical. */
  holder: string;
  /** Each VC inside, verified (at least one). */
  credentials: VerificationSuccess[];
}

/**
 * One VP JWT of an OpenID4VP 1.0 `jwt_vc_json` answer (§8.6, §14, Appendix B.1.3.1): addressed
 * (`aud`) to exactly the request's client id, carrying its `nonce`, signed by its holder (JWT
 * `iss`, resolved); every VC inside verified as by checkCredential (signature, issuer DID of this
 * service, not revoked) and about the holder; at least one. Never throws for a bad VP (the
 * failure says why); a chain outage while resolving is a 503, as in every other check.
 */
export async function checkOid4vpVp(
  ctx: CredentialContext,
  jwt: string,
  request: { clientId: string; nonce: string },
): Promise<CheckedOid4vpVp | VerificationFailure> {
  let payload: Record<string, unknown>;
  try {
    payload = decodeJWT(jwt).payload as Record<string, unknown>;
  } catch {
    return failure('invalid_jwt', 'the presentation is not a well-formed JWT');
  }
  // Exactly the client id (OpenID4VP 1.0 §14.8): a bare DID, or the client id among others, is
  // another audience.
  const audience =
    Array.isArray(payload.aud) && payload.aud.length === 1 ? payload.aud[0] : payload.aud;
  if (audience !== request.clientId) {
    return failure(
      'wrong_audience',
      'The presentation is not addressed (aud) to the client id of the request',
    );
  }
  if (payload.nonce !== request.nonce) {
    return failure('wrong_nonce', 'The presentation does not carry the nonce of the request');
  }
  const result = await verifyHolderVp(ctx, jwt, request.clientId, payload.iss);
  if (!result.verified) return result;
  const holder = canonicalDid(result.issuer);
  const credentials = await checkPresentedCredentials(ctx, result.payload, holder);
  if (!Array.isArray(credentials)) return credentials;
  if (credentials.length === 0) {
    return failure('no_credentials', 'The presentation holds no credential');
  }
  return { holder, credentials };
}
