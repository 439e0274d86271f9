import type { DidAgent } from '../agent/create-did-agent.js';
import type { ServiceDids } from '../dids/service-dids.js';
import type { CredentialStatusChecker } from '../status/credential-status.js';

/** What verifying VCs and VPs needs. */
export interface CredentialContext {
  agent: DidAgent;
  serviceDids: ServiceDids;
  /** The revocation check of each verified VC's status entries (this service's lists). */
  status: CredentialStatusChecker;
  /**
   * Called when a signer's DID could not be resolved; throws (503) when the chain itself is
   * down, so that an outage is not reported as a credential that does not verify.
   */
  assertChainAvailable?: () => Promise<void>;
}
