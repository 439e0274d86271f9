import type { SqlDatabase } from '@itp/stores';
import type { DidAgent } from '../agent/create-did-agent.js';
import type { CredentialContext } from '../credentials/credential-context.js';
import type { DidTables } from '../db/did-tables.js';
import { StatusListStore } from '../db/status-lists.js';
import type { DidRouterDeps } from '../http/did-router.js';
import { CredentialStatusChecker } from './credential-status.js';
import { agentSignerCheck } from './revoke-credential.js';
import { StatusListPublisher } from './status-list-publisher.js';
import { ANY_BASE_STATUS_LIST_URLS, StatusListUrls } from './status-list-urls.js';

export interface StatusWiring {
  /** The status lists (SQL): the bits, their entries' users. */
  lists: StatusListStore;
  /** The list URLs issued VCs name, under PUBLIC_URL. */
  urls: StatusListUrls;
  /** Signs and keeps the status list credentials GET /v2/did/status-lists/<listId> answers. */
  publisher: StatusListPublisher;
  /** The revocation check of every verified VC. */
  checker: CredentialStatusChecker;
}

/** Revocation (W3C Bitstring Status List) of the VCs this service issues under `publicUrl`. */
export function wireStatus(
  database: SqlDatabase<DidTables>,
  agent: DidAgent,
  publicUrl: string,
): StatusWiring {
  const lists = new StatusListStore(database);
  const urls = new StatusListUrls(publicUrl);
  return {
    lists,
    urls,
    publisher: new StatusListPublisher({ store: lists, agent, urls }),
    checker: new CredentialStatusChecker(lists, urls),
  };
}

/** The /v2/did router's revoke-vc and status-lists parts. */
export function statusRoutes(
  status: StatusWiring,
  context: CredentialContext,
  maxAgeSeconds: number,
): DidRouterDeps['status'] {
  return {
    // Any public base: a VC issued under an earlier PUBLIC_URL is revocable too (the list's
    // issuer must have signed it).
    revoke: {
      verifySigner: agentSignerCheck(context),
      store: status.lists,
      urls: ANY_BASE_STATUS_LIST_URLS,
    },
    publisher: status.publisher,
    maxAgeSeconds,
  };
}
