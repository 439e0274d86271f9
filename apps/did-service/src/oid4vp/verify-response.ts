import { parseDcqlVpToken } from '@openid4vc/openid4vp';
import { DcqlPresentationResult, DcqlQuery, type DcqlCredentialPresentation } from 'dcql';
import type { Oid4vpVerifyResponseRequest, Oid4vpVerifyResponseResult } from '@itp/schemas';
import { credentialIssuedAt } from '../credentials/credential-issued-at.js';
import type { CredentialContext } from '../credentials/credential-context.js';
import { failure, type VerificationSuccess } from '../credentials/verification.js';
import { checkOid4vpVp } from './check-oid4vp-vp.js';
import { DID_CLIENT_ID_PREFIX, ITP_CREDENTIAL_QUERY_ID, itpDcqlQuery } from './oid4vp-constants.js';

const dcqlQuery = DcqlQuery.parse(itpDcqlQuery());
DcqlQuery.validate(dcqlQuery);

/** A VC's claims as DCQL evaluates them (a jwt_vc_json credential, holder-bound by its VP). */
function dcqlPresentation(credential: VerificationSuccess): DcqlCredentialPresentation {
  const vc = (credential.payload.vc ?? {}) as { type?: unknown; credentialSubject?: unknown };
  const claims = vc.credentialSubject;
  return {
    credential_format: 'jwt_vc_json',
    type: Array.isArray(vc.type) ? vc.type.filter((t): t is string => typeof t === 'string') : [],
    claims:
      typeof claims === 'object' && claims !== null && !Array.isArray(claims)
        ? (claims as Record<string, never>)
        : {},
    cryptographic_holder_binding: true,
  };
}

/**
 * Checks a wallet's OpenID4VP 1.0 answer to an authorization request of this service
 * (§8.6, §14): the client id is `decentralized_identifier:` + a verifier DID of this service; the
 * `vp_token` is a DCQL one (an object keyed by credential query id, each value
 * an array of presentations) answering this service's one query with one VP JWT, checked by
 * checkOid4vpVp (aud, nonce, holder signature, every VC of this service, unrevoked, about the
 * holder); the VCs satisfy the DCQL
 * query; all of them name one user (`credentialSubject.sub`). Never throws for a bad answer (the
 * failure says why); a chain outage while resolving is a 503, as in every other check.
 */
export async function verifyOid4vpResponse(
  ctx: CredentialContext,
  request: Oid4vpVerifyResponseRequest,
): Promise<Oid4vpVerifyResponseResult> {
  const clientDid = request.clientId.startsWith(DID_CLIENT_ID_PREFIX)
    ? request.clientId.slice(DID_CLIENT_ID_PREFIX.length)
    : undefined;
  if (!clientDid || !ctx.serviceDids.isVerifier(clientDid)) {
    return failure(
      'wrong_audience',
      `clientId is not ${DID_CLIENT_ID_PREFIX}<a verifier DID of this service>`,
    );
  }
  let presentations: ReturnType<typeof parseDcqlVpToken>;
  try {
    presentations = parseDcqlVpToken(request.vpToken);
  } catch {
    return failure(
      'invalid_vp_token',
      'vp_token is not a JSON object of credential query ids, each with an array of presentations',
    );
  }
  const queryIds = Object.keys(presentations);
  if (queryIds.length !== 1 || queryIds[0] !== ITP_CREDENTIAL_QUERY_ID) {
    return failure(
      'dcql_unsatisfied',
      `vp_token must answer exactly the credential query "${ITP_CREDENTIAL_QUERY_ID}"`,
    );
  }
  const answered = presentations[ITP_CREDENTIAL_QUERY_ID] ?? [];
  if (answered.length !== 1) {
    return failure('dcql_unsatisfied', 'vp_token must hold exactly one presentation');
  }
  const [jwt] = answered;
  if (typeof jwt !== 'string') {
    return failure('invalid_vp_token', 'the presentation is not a VP JWT (jwt_vc_json)');
  }
  const checked = await checkOid4vpVp(ctx, jwt, request);
  if ('verified' in checked) return checked;
  const { holder, credentials } = checked;
  let satisfied = false;
  try {
    satisfied = DcqlPresentationResult.fromDcqlPresentation(
      { [ITP_CREDENTIAL_QUERY_ID]: credentials.map(dcqlPresentation) },
      { dcqlQuery },
    ).can_be_satisfied;
  } catch {
    satisfied = false;
  }
  if (!satisfied) {
    return failure(
      'dcql_unsatisfied',
      'The presentation does not hold one credential of the types asked for',
    );
  }
  const users = new Set(
    credentials.map(
      (c) =>
        (c.payload.vc as { credentialSubject?: { sub?: unknown } } | undefined)?.credentialSubject
          ?.sub,
    ),
  );
  const [userId] = [...users];
  if (users.size !== 1 || typeof userId !== 'string' || userId.length === 0) {
    return failure('user_mismatch', 'The credential does not name a user (credentialSubject.sub)');
  }
  // auth-service refuses a credential issued before the user's last reset (docs/api.md §12).
  return {
    verified: true,
    userId,
    holder,
    credentialIssuedAt: credentialIssuedAt(credentials) ?? 0,
  };
}
