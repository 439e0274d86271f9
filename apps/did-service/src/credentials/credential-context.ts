import type { DidAgent } from '../agent/create-did-agent.js';
import type { ServiceDids } from '../dids/service-dids.js';

/** What verifying VCs and VPs needs. */
export interface CredentialContext {
  agent: DidAgent;
  serviceDids: ServiceDids;
  /**
   * Called when a signer's DID could not be resolved; throws (503) when the chain itself is
   * down, so that an outage is not reported as a credential that does not verify.
   */
  assertChainAvailable?: () => Promise<void>;
}
