import { randomUUID } from 'node:crypto';
import type { VerifiableCredential } from '@veramo/core';
import {
  W3C_CREDENTIALS_CONTEXT,
  W3C_STATUS_CONTEXT,
  type BitstringStatusListEntry,
  type CreateVcRequest,
} from '@itp/schemas';
import type { HolderBindings } from '../db/holder-bindings.js';
import type { IssuedCredentialStore, IssuedVia } from '../db/issued-credentials.js';
import { canonicalDid } from '../dids/did-ethr.js';
import { HolderNotBoundError, NotAnIssuerError } from '../errors.js';
import { REVOCATION, STATUS_ENTRY_TYPE } from '../status/credential-status.js';
import type { StatusIndexAllocator } from '../status/status-index-allocator.js';
import type { StatusListUrls } from '../status/status-list-urls.js';
import type { CredentialContext } from './credential-context.js';
import { holderIdentifier } from './holder-identifier.js';
import { signCredentialJwt } from './sign-credential-jwt.js';

export interface IssueCredentialDeps extends CredentialContext {
  bindings: HolderBindings;
  /** JWT exp = issuance + this; undefined = the VC does not expire. */
  vcLifetimeSeconds?: number;
  /** Hands out the status list entry of each new VC. */
  allocator: StatusIndexAllocator;
  statusUrls: StatusListUrls;
  /** Records each VC issued for a user (GET /v2/did/credentials, revoke-credentials). */
  issuedCredentials: IssuedCredentialStore;
}

/**
 * create-vc (docs/api.md §3.2, §4.1 rule 7, docs/api.md §3): `issuer` must be an issuer DID of this
 * service (400); `holder` a DID create-did made (400) and bound to the calling user by create-did
 * with the wallet's secretKey and the user's bearer (403 otherwise: create-vc never binds). The VC says `credentialSubject: { id: holder, sub: userId,
 * ...userInfo }`, carries a revocation entry of one of the issuer's status lists (W3C Bitstring
 * Status List; the entry records the user, who alone may revoke it) and a JwtProof2020 signed
 * with the issuer's key. An entry whose VC then fails to be signed stays unused (its bit is never
 * set).
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
  return signProfileCredential(deps, {
    issuer,
    holder,
    userId,
    userInfo: request.userInfo,
    via: 'create-vc',
  });
}

/** What a Profile VC of this service says: who signs, about which DID, for which user. */
export interface ProfileCredentialClaims {
  /** An issuer DID of this service (canonical). */
  issuer: string;
  /** `credentialSubject.id`: the holder DID (a create-did DID, or a wallet's own DID: §10). */
  holder: string;
  /** `credentialSubject.sub`: the user, who alone may revoke it. */
  userId: string;
  userInfo: CreateVcRequest['userInfo'];
  /** Who asks: create-vc, or the OpenID4VCI credential endpoint (recorded with the VC). */
  via: IssuedVia;
}

/**
 * Signs a Profile VC (the one way this service issues, create-vc and OpenID4VCI alike): an id
 * (`urn:uuid:…`, the JWT's `jti`), a revocation entry of one of the issuer's status lists and a
 * JwtProof2020 by the issuer's key; then records it for the user (did_issued_credentials: GET
 * /v2/did/credentials, and a reset revokes it). A VC is answered only once recorded. The caller
 * has checked who may have it.
 */
export async function signProfileCredential(
  deps: Pick<
    IssueCredentialDeps,
    'agent' | 'allocator' | 'statusUrls' | 'vcLifetimeSeconds' | 'issuedCredentials'
  >,
  claims: ProfileCredentialClaims,
): Promise<VerifiableCredential> {
  const { issuer, holder, userId } = claims;
  const { listId, index } = await deps.allocator.allocate(issuer, userId);
  const listUrl = deps.statusUrls.listUrl(listId);
  const credentialStatus: BitstringStatusListEntry = {
    id: `${listUrl}#${index}`,
    type: STATUS_ENTRY_TYPE,
    statusPurpose: REVOCATION,
    statusListIndex: String(index),
    statusListCredential: listUrl,
  };
  const now = new Date();
  const credential = {
    '@context': [W3C_CREDENTIALS_CONTEXT, W3C_STATUS_CONTEXT],
    id: `urn:uuid:${randomUUID()}`,
    type: ['VerifiableCredential', 'Profile'],
    issuer: { id: issuer },
    issuanceDate: now.toISOString(),
    ...(deps.vcLifetimeSeconds
      ? { expirationDate: new Date(now.getTime() + deps.vcLifetimeSeconds * 1000).toISOString() }
      : {}),
    credentialSubject: { id: holder, sub: userId, ...claims.userInfo },
    credentialStatus,
  };
  const vc = await signCredentialJwt(deps.agent, credential);
  // As the signed VC says it (whole seconds: the JWT's nbf and exp).
  const expiresAt = vc.expirationDate ? new Date(vc.expirationDate).toISOString() : undefined;
  await deps.issuedCredentials.record({
    id: credential.id,
    userId,
    holder,
    issuedAt: new Date(vc.issuanceDate).toISOString(),
    expiresAt,
    via: claims.via,
    listId,
    index,
  });
  return vc;
}
