import { randomUUID } from 'node:crypto';
import type { VerifiablePresentation } from '@veramo/core';
import { BadRequestError, ForbiddenError } from '@itp/errors';
import { W3C_CREDENTIALS_CONTEXT, type CreateVpRequest } from '@itp/schemas';
import type { HolderBindings } from '../db/holder-bindings.js';
import { canonicalDid } from '../dids/did-ethr.js';
import { HolderNotBoundError, NotAVerifierError } from '../errors.js';
import { checkCredential } from './check-credential.js';
import type { CredentialContext } from './credential-context.js';
import { holderIdentifier } from './holder-identifier.js';

export interface CreatePresentationDeps extends CredentialContext {
  bindings: HolderBindings;
}

/**
 * create-vp (docs/api.md §3.3, §4.1 rule 8, docs/api.md §3): only the user the holder DID is bound to
 * (403 otherwise); `verifier` a verifier DID of this service (400); every credential verifies,
 * is about the holder (400) and belongs to that user (403). The VP is signed by the holder key
 * through the wallet, `aud` = [verifier], and has a fresh `id` (JWT jti), so that two VPs made in
 * the same second differ and a login can refuse a replay.
 */
export async function createPresentation(
  deps: CreatePresentationDeps,
  request: CreateVpRequest,
  userId: string,
): Promise<VerifiablePresentation> {
  const verifier = canonicalDid(request.verifier);
  if (!deps.serviceDids.isVerifier(verifier)) throw new NotAVerifierError(request.verifier);
  const holder = (await holderIdentifier(deps.agent, canonicalDid(request.holder))).did;
  if ((await deps.bindings.boundUser(holder)) !== userId) throw new HolderNotBoundError(holder);
  for (const [index, credential] of request.credentials.entries()) {
    const checked = await checkCredential(deps, credential.proof.jwt, credential);
    if (!checked.verified) {
      throw new BadRequestError(`credentials[${index}] does not verify: ${checked.error.message}`);
    }
    const subject = checked.payload.sub;
    if (typeof subject !== 'string' || canonicalDid(subject) !== holder) {
      throw new BadRequestError(
        `credentials[${index}] is not about the holder (credentialSubject.id)`,
      );
    }
    const claims = (checked.payload.vc ?? {}) as { credentialSubject?: { sub?: unknown } };
    if (claims.credentialSubject?.sub !== userId) {
      throw new ForbiddenError(
        `credentials[${index}] belongs to another user (credentialSubject.sub)`,
      );
    }
  }
  const presentation = {
    id: `urn:uuid:${randomUUID()}`,
    '@context': [W3C_CREDENTIALS_CONTEXT],
    type: ['VerifiablePresentation', 'VerifiableCredential', 'Profile'],
    holder,
    verifier: [verifier],
    verifiableCredential: request.credentials,
  };
  return deps.agent.createVerifiablePresentation({ presentation, proofFormat: 'jwt' });
}
