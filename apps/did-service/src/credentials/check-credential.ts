import { isSelfContainedDid } from '../agent/did-resolvers.js';
import { canonicalJson } from './canonical-json.js';
import type { CredentialContext } from './credential-context.js';
import { verifyCredentialJwtFast } from './verify-credential-jwt.js';
import {
  failure,
  failureFromVeramo,
  type Verification,
  type VerificationFailure,
  type VerificationSuccess,
} from './verification.js';

/**
 * Verifies a VC JWT (signature against the issuer's resolved DID document, nbf / exp) and, when
 * the client sent the VC as JSON, that the JSON says exactly what the JWT says; the issuer must
 * be an issuer DID of this service, and the VC not revoked (its status entries, read from this
 * service's lists: `revoked`, or `status_unavailable` when that cannot be told). Never throws for
 * a bad credential: the failure says why. `options.fast: false` (specs, bench): only the agent's
 * path, without verify-credential-jwt.ts's.
 */
export async function checkCredential(
  ctx: CredentialContext,
  jwt: string,
  claimed?: unknown,
  options: { fast?: boolean } = {},
): Promise<Verification> {
  let result: Record<string, unknown> & {
    verified: boolean;
    error?: { message?: string; errorCode?: string };
  };
  // An ES256K VC of a key already known (ADR 0034): node:crypto instead of did-jwt's key
  // recovery, the same answer; anything else, failures included, takes the agent's path.
  const fast = options.fast === false ? undefined : await verifyCredentialJwtFast(ctx, jwt);
  if (fast) {
    result = fast;
  } else {
    try {
      result = (await ctx.agent.verifyCredential({ credential: jwt })) as typeof result;
    } catch (err) {
      return failure(
        'invalid_jwt',
        err instanceof Error ? err.message : 'the credential JWT is malformed',
      );
    }
  }
  if (!result.verified) return resolverAware(ctx, failureFromVeramo(result.error));
  const success = result as VerificationSuccess;
  if (
    claimed !== undefined &&
    canonicalJson(claimed) !== canonicalJson(success.verifiableCredential)
  ) {
    return failure(
      'json_mismatch',
      'The credential JSON does not match the claims of its JWT (proof.jwt)',
    );
  }
  if (!ctx.serviceDids.isIssuer(success.issuer)) {
    return failure('foreign_issuer', `${success.issuer} is not an issuer DID of this service`);
  }
  // The JWT's claims, not the JSON: a status entry added to or removed from the JSON alone is a
  // json_mismatch above (when the JSON was sent) and counts for nothing here.
  const statusFailure = await ctx.status.check(success.payload.vc, success.issuer);
  if (statusFailure) return statusFailure;
  return success;
}

/**
 * Resolver failures: 503 when the chain is down; otherwise a message without upstream details.
 * `signerDid` (the JWT's `iss`, when known): a did:key / did:jwk signer needs no chain, so its
 * failure is never the chain's (its DID is malformed or of an unsupported key type).
 */
export async function resolverAware(
  ctx: Pick<CredentialContext, 'assertChainAvailable'>,
  result: VerificationFailure,
  signerDid?: unknown,
): Promise<VerificationFailure> {
  if (result.error.code !== 'resolver_error') return result;
  if (typeof signerDid === 'string' && isSelfContainedDid(signerDid)) {
    return failure(
      'resolver_error',
      "The signer's DID could not be resolved (a malformed did:key / did:jwk, or a key type it does not support)",
    );
  }
  await ctx.assertChainAvailable?.();
  return failure(
    'resolver_error',
    "The signer's DID could not be resolved on the configured chain",
  );
}
