import type { VerifiableCredential } from '@veramo/core';
import { W3C_CREDENTIALS_CONTEXT, type CreateVcRequest } from '@itp/schemas';
import type { HolderBindings } from '../db/holder-bindings.js';
import { canonicalDid } from '../dids/did-ethr.js';
import { HolderNotBoundError, NotAnIssuerError } from '../errors.js';
import type { CredentialContext } from './credential-context.js';
import { holderIdentifier } from './holder-identifier.js';

export interface IssueCredentialDeps extends CredentialContext {
  bindings: HolderBindings;
  /** JWT exp = issuance + this; undefined = the VC does not expire. */
  vcLifetimeSeconds?: number;
}

/**
 * create-vc (docs/api.md §3.2, §4.1 rule 7, docs/api.md §3): `issuer` must be an issuer DID of this
 * service (400); `holder` a DID create-did made (400) and bound to the calling user by create-did
 * with the wallet's secretKey and the user's bearer (403 otherwise: create-vc never binds). The VC says `credentialSubject: { id: holder, sub: userId,
 * ...userInfo }` and carries a JwtProof2020 signed with the issuer's key.
 */
export async function issueCredential(
  deps: IssueCredentialDeps,
  request: CreateVcRequest,
  userId: string,
): Promise<VerifiableCredential> {
  const issuer = canonicalDid(request.issuer);
  if (!deps.serviceDids.isIssuer(issuer)) throw new NotAnIssuerError(request.issuer);
  const holder = (await holderIdentifier(deps.agent, canonicalDid(request.holder))).did;
  if ((await deps.bindings.boundUser(holder)) !== userId) throw new HolderNotBoundError(holder);
  const now = new Date();
  const credential = {
    '@context': [W3C_CREDENTIALS_CONTEXT],
    type: ['VerifiableCredential', 'Profile'],
    issuer: { id: issuer },
    issuanceDate: now.toISOString(),
    ...(deps.vcLifetimeSeconds
      ? { expirationDate: new Date(now.getTime() + deps.vcLifetimeSeconds * 1000).toISOString() }
      : {}),
    credentialSubject: { id: holder, sub: userId, ...request.userInfo },
  };
  return deps.agent.createVerifiableCredential({ credential, proofFormat: 'jwt' });
}
