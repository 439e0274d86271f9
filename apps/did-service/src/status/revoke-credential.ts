import { decodeJWT } from 'did-jwt';
import type { RevokeVcResult } from '@itp/schemas';
import type { DidAgent } from '../agent/create-did-agent.js';
import { resolverAware } from '../credentials/check-credential.js';
import { failureFromVeramo } from '../credentials/verification.js';
import type { StatusListStore } from '../db/status-lists.js';
import { canonicalDid } from '../dids/did-ethr.js';
import type { ServiceDids } from '../dids/service-dids.js';
import { NotRevocableError, NotYourCredentialError } from '../errors.js';
import { ownStatusEntry, statusEntriesOf } from './credential-status.js';
import type { StatusListUrls } from './status-list-urls.js';

/**
 * Checks a VC JWT's signature (not its expiry) and answers its issuer DID; throws
 * NotRevocableError when it does not verify.
 */
export type VerifyCredentialSigner = (jwt: string) => Promise<string>;

export interface RevokeCredentialDeps {
  verifySigner: VerifyCredentialSigner;
  store: StatusListStore;
  /** Which status list URLs are this service's. */
  urls: Pick<StatusListUrls, 'listIdOf'>;
}

/**
 * Revokes a VC for good (revoke-vc, and the operator CLI's `credentials revoke`). The JWT
 * decides, never a JSON beside it: it must verify (expiry aside: revoking an expired VC is
 * harmless and makes its status say so) and carry a status entry of one of this service's lists
 * whose issuer signed it (400 otherwise). With `userId` (the bearer's user) the entry must have
 * been handed out to that user (403); the operator CLI gives none. Revoking a revoked VC answers
 * the same.
 */
export async function revokeCredential(
  deps: RevokeCredentialDeps,
  jwt: string,
  userId?: string,
): Promise<RevokeVcResult> {
  const issuer = canonicalDid(await deps.verifySigner(jwt));
  const vc = (decodeJWT(jwt).payload as { vc?: unknown }).vc;
  const entry = statusEntriesOf(vc)
    .map((candidate) => ownStatusEntry(candidate, deps.urls))
    .find((candidate) => candidate !== undefined);
  const list = entry && (await deps.store.list(entry.listId));
  const stored = entry && list && (await deps.store.entry(entry.listId, entry.index));
  if (!entry || !list || !stored || canonicalDid(list.issuer) !== issuer) {
    throw new NotRevocableError(
      'The credential has no status entry of this service: it cannot be revoked',
    );
  }
  if (userId !== undefined && stored.userId !== userId) throw new NotYourCredentialError();
  await deps.store.revoke(entry.listId, entry.index);
  return {
    revoked: true,
    statusListCredential: entry.listUrl,
    statusListIndex: String(entry.index),
  };
}

/**
 * The service's signer check: the JWT verifies through the agent (signature against the
 * issuer's DID document on the chain; a chain outage is a 503) and its issuer is an issuer DID
 * of this service.
 */
export function agentSignerCheck(deps: {
  agent: DidAgent;
  serviceDids: ServiceDids;
  assertChainAvailable?: () => Promise<void>;
}): VerifyCredentialSigner {
  return async (jwt) => {
    let result: { verified: boolean; issuer?: unknown; error?: { message?: string } };
    try {
      result = (await deps.agent.verifyCredential({
        credential: jwt,
        policies: { expirationDate: false, credentialStatus: false },
      })) as typeof result;
    } catch {
      throw new NotRevocableError('The credential JWT is malformed');
    }
    if (!result.verified) {
      const reason = await resolverAware(deps, failureFromVeramo(result.error));
      throw new NotRevocableError(`The credential does not verify: ${reason.error.message}`);
    }
    if (typeof result.issuer !== 'string' || !deps.serviceDids.isIssuer(result.issuer)) {
      throw new NotRevocableError('The credential was not issued by this service');
    }
    return result.issuer;
  };
}
