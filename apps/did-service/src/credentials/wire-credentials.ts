import type { ChainClient } from '@itp/chain';
import { ServiceUnavailableError } from '@itp/errors';
import type { SqlDatabase } from '@itp/stores';
import type { DidAgent } from '../agent/create-did-agent.js';
import type { DidConfig } from '../config.js';
import type { DidTables } from '../db/did-tables.js';
import type { HolderBindings } from '../db/holder-bindings.js';
import { IssuedCredentialStore } from '../db/issued-credentials.js';
import type { ServiceDids } from '../dids/service-dids.js';
import { StatusIndexAllocator } from '../status/status-index-allocator.js';
import type { StatusWiring } from '../status/wire-status.js';
import type { CreatePresentationDeps } from './create-presentation.js';
import type { CredentialContext } from './credential-context.js';
import type { IssueCredentialDeps } from './issue-credential.js';

export interface CredentialsWiring {
  /** What verifying VCs and VPs needs (verify-vc, verify-vp, VP logins, revoke-vc). */
  context: CredentialContext;
  /** create-vc, create-vp and the issued-credentials list (and OpenID4VCI's signing). */
  credentials: IssueCredentialDeps & CreatePresentationDeps;
}

/**
 * Issuing and verifying VCs and VPs: the agent and the service DIDs, the revocation check, a
 * chain outage reported as 503 (not as a credential that does not verify), status list entries
 * for new VCs (STATUS_LIST_LENGTH), VC_LIFETIME_SECONDS and the record of issued VCs.
 */
export function wireCredentials(
  config: DidConfig,
  parts: {
    agent: DidAgent;
    serviceDids: ServiceDids;
    chain: ChainClient;
    status: StatusWiring;
    bindings: HolderBindings;
    database: SqlDatabase<DidTables>;
  },
): CredentialsWiring {
  const { chain, status } = parts;
  const context: CredentialContext = {
    agent: parts.agent,
    serviceDids: parts.serviceDids,
    status: status.checker,
    assertChainAvailable: async () => {
      try {
        await chain.ping();
      } catch (err) {
        throw new ServiceUnavailableError('The chain is unavailable: DIDs cannot be resolved', {
          cause: err,
        });
      }
    },
  };
  const credentials = {
    ...context,
    bindings: parts.bindings,
    vcLifetimeSeconds: config.VC_LIFETIME_SECONDS,
    allocator: new StatusIndexAllocator(status.lists, config.STATUS_LIST_LENGTH),
    statusUrls: status.urls,
    issuedCredentials: new IssuedCredentialStore(parts.database),
  };
  return { context, credentials };
}
