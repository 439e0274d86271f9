import { decodeJWT } from 'did-jwt';
import { didString } from '@itp/schemas';
import { canonicalDid } from '../dids/did-ethr.js';
import { checkCredential, resolverAware } from './check-credential.js';
import { canonicalJson } from './canonical-json.js';
import type { CredentialContext } from './credential-context.js';
import {
  failure,
  failureFromVeramo,
  type VerificationFailure,
  type VerificationSuccess,
} from './verification.js';

export interface PresentationCheck {
  verified: true;
  /** The verify-vp answer (docs/api.md §3.4). */
  result: VerificationSuccess;
  /** The holder DID (JWT iss), canonical. */
  holder: string;
  /** The verifier DID of this service the VP is addressed to, canonical. */
  verifier: string;
  /** Each VC inside, verified. */
  credentials: VerificationSuccess[];
}

/**
 * Verifies a VP JWT: addressed (`aud`) to a verifier DID of this service, signed by the holder,
 * JSON equal to the JWT's claims when sent as JSON, and — what Veramo's verifyPresentation does
 * not do — every VC inside verified as by checkCredential and about the holder
 * (`credentialSubject.id` = the VP's holder).
 */
export async function checkPresentation(
  ctx: CredentialContext,
  jwt: string,
  claimed?: unknown,
): Promise<PresentationCheck | VerificationFailure> {
  let audience: unknown;
  let signerDid: unknown;
  try {
    ({ aud: audience, iss: signerDid } = decodeJWT(jwt).payload);
  } catch {
    return failure('invalid_jwt', 'proof.jwt is not a well-formed JWT');
  }
  const addressedTo = (Array.isArray(audience) ? audience : [audience]).filter(
    (a): a is string => typeof a === 'string',
  );
  const domain = addressedTo.find((a) => ctx.serviceDids.isVerifier(a));
  if (!domain) {
    return failure(
      'wrong_audience',
      'The presentation is not addressed (aud) to a verifier DID of this service',
    );
  }
  const result = await verifyHolderVp(ctx, jwt, domain, signerDid);
  if (!result.verified) return result;
  if (
    claimed !== undefined &&
    canonicalJson(claimed) !== canonicalJson(result.verifiablePresentation)
  ) {
    return failure(
      'json_mismatch',
      'The presentation JSON does not match the claims of its JWT (proof.jwt)',
    );
  }
  const holder = canonicalDid(result.issuer);
  const credentials = await checkPresentedCredentials(ctx, result.payload, holder);
  if (!Array.isArray(credentials)) return credentials;
  return { verified: true, result, holder, verifier: canonicalDid(domain), credentials };
}

/**
 * A VP JWT signed by its holder: the holder DID (`iss`, as decoded by the caller) one the API can
 * name (holderDidFailure), then Veramo's verifyPresentation for `domain` (the audience: signature
 * by the resolved holder, `aud`, dates). A malformed JWT or a failed check is the failure (a chain
 * outage while resolving the holder a 503, resolverAware); else did-jwt-vc's whole result.
 */
export async function verifyHolderVp(
  ctx: CredentialContext,
  jwt: string,
  domain: string,
  signerDid: unknown,
): Promise<VerificationSuccess | VerificationFailure> {
  const badHolder = holderDidFailure(signerDid);
  if (badHolder) return badHolder;
  let outcome: {
    verified: boolean;
    verifiablePresentation?: unknown;
    error?: { message?: string; errorCode?: string };
  };
  try {
    outcome = (await ctx.agent.verifyPresentation({ presentation: jwt, domain })) as typeof outcome;
  } catch (err) {
    return failure(
      'invalid_jwt',
      err instanceof Error ? err.message : 'the presentation JWT is malformed',
    );
  }
  if (!outcome.verified) return resolverAware(ctx, failureFromVeramo(outcome.error), signerDid);
  // Veramo's JWT provider puts did-jwt-vc's whole result under verifiablePresentation.
  return outcome.verifiablePresentation as VerificationSuccess;
}

/**
 * A VP's holder (JWT `iss`) must be a DID as the API answers one (`didString`: at most 512
 * characters): a did:jwk can carry any JWK members, and a holder DID the answers cannot name
 * would fail their schema (auth-service: a 502) instead of being refused. Checked before the DID
 * is resolved; a missing `iss` is did-jwt's to refuse.
 */
export function holderDidFailure(iss: unknown): VerificationFailure | undefined {
  // No `iss` at all: did-jwt refuses it (invalid_jwt).
  if (typeof iss !== 'string' || didString.safeParse(iss).success) return undefined;
  return failure(
    'resolver_error',
    'The holder (iss) is not a DID this service resolves (did:<method>:<id>, at most 512 characters)',
  );
}

/**
 * The VCs inside a verified VP's claims (`vp.verifiableCredential`, JWT strings or JSON with a
 * JWT proof): each verified as by checkCredential (signature, issuer DID of this service, not
 * revoked) and about the holder (`credentialSubject.id` = the canonical holder DID). The first
 * failure is returned, its message naming the VC's index.
 */
export async function checkPresentedCredentials(
  ctx: CredentialContext,
  payload: Record<string, unknown>,
  holder: string,
): Promise<VerificationSuccess[] | VerificationFailure> {
  const vp = (payload.vp ?? {}) as { verifiableCredential?: unknown };
  const inside = Array.isArray(vp.verifiableCredential) ? vp.verifiableCredential : [];
  const credentials: VerificationSuccess[] = [];
  for (const [index, credential] of inside.entries()) {
    const credentialJwt =
      typeof credential === 'string'
        ? credential
        : (credential as { proof?: { jwt?: unknown } } | null)?.proof?.jwt;
    if (typeof credentialJwt !== 'string') {
      return failure('invalid_credential', `verifiableCredential[${index}] has no JWT proof`);
    }
    const checked = await checkCredential(ctx, credentialJwt);
    if (!checked.verified) {
      return failure(
        checked.error.code,
        `verifiableCredential[${index}]: ${checked.error.message}`,
      );
    }
    if (typeof checked.payload.sub !== 'string' || canonicalDid(checked.payload.sub) !== holder) {
      return failure(
        'subject_mismatch',
        `verifiableCredential[${index}] is about another subject than the holder of the presentation`,
      );
    }
    credentials.push(checked);
  }
  return credentials;
}
