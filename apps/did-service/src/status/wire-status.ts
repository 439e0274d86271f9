import type { Router } from 'express';
import type { SqlDatabase } from '@itp/stores';
import type { DidAgent } from '../agent/create-did-agent.js';
import type { CredentialContext } from '../credentials/credential-context.js';
import type { DidTables } from '../db/did-tables.js';
import { StatusListStore } from '../db/status-lists.js';
import type { DidRouterDeps } from '../http/did-router.js';
import type { SdJwtIssuerKeys } from '../sd-jwt-issuer/sd-jwt-issuer-key.js';
import { CredentialStatusChecker } from './credential-status.js';
import { agentSignerCheck } from './revoke-credential.js';
import { StatusListPublisher } from './status-list-publisher.js';
import { StatusIndexAllocator } from './status-index-allocator.js';
import { ANY_BASE_STATUS_LIST_URLS, StatusListUrls } from './status-list-urls.js';
import { TokenStatusListAllocator } from './token-status-list-allocator.js';
import { TokenStatusListPublisher } from './token-status-list-publisher.js';
import { publishedIssuerKeys, type RevokeSdJwtDeps } from './token-status-list-revocation.js';
import { tokenStatusListRouter } from './token-status-list-router.js';

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

export interface TokenStatusWiring {
  /** Status entries of new SD-JWT VCs (what OpenID4VCI calls: `lists.allocate(userId)`). */
  lists: TokenStatusListAllocator;
  /** Signs the tokens GET /v2/did/token-status-lists/<listId> answers. */
  publisher: TokenStatusListPublisher;
  /** GET /v2/did/token-status-lists/<listId> (public). */
  router: Router;
  /** revoke-vc `{ sdJwt }`. */
  revoke: RevokeSdJwtDeps;
}

/**
 * Revocation of SD-JWT VCs (IETF Token Status List, contract §15): entries in the same SQL
 * status lists as the W3C ones (lists of their own, issuer `<publicUrl>/v2/did/oid4vci`), tokens
 * signed by the SD-JWT issuer key (`keys`; undefined: issuance off, no list served).
 */
export function wireTokenStatusLists(
  status: StatusWiring,
  parts: {
    keys: SdJwtIssuerKeys | undefined;
    publicUrl: string;
    /** STATUS_LIST_LENGTH */
    listLength: number;
    /** STATUS_LIST_MAX_AGE_SECONDS */
    maxAgeSeconds: number;
  },
): TokenStatusWiring {
  const store = status.lists;
  const publisher = new TokenStatusListPublisher({
    store,
    keys: parts.keys,
    maxAgeSeconds: parts.maxAgeSeconds,
  });
  return {
    lists: new TokenStatusListAllocator(
      new StatusIndexAllocator(store, parts.listLength),
      parts.publicUrl,
    ),
    publisher,
    router: tokenStatusListRouter({ publisher, maxAgeSeconds: parts.maxAgeSeconds }),
    revoke: { issuerKeys: publishedIssuerKeys(parts.keys), store },
  };
}

/** The /v2/did router's revoke-vc and status-lists parts. */
export function statusRoutes(
  status: StatusWiring,
  context: CredentialContext,
  maxAgeSeconds: number,
  tokenStatus: TokenStatusWiring,
): DidRouterDeps['status'] {
  return {
    revokeSdJwt: tokenStatus.revoke,
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
