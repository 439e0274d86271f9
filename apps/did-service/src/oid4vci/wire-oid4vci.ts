import type { Router } from 'express';
import type { Logger } from '@itp/service-kit';
import { RateLimiter, type KvStore, type SqlDatabase } from '@itp/stores';
import type { DidAgent } from '../agent/create-did-agent.js';
import type { DidConfig } from '../config.js';
import type { IssueCredentialDeps } from '../credentials/issue-credential.js';
import type { DidTables } from '../db/did-tables.js';
import type { UserAuthentication } from '../http/authenticate.js';
import { oid4vciRouter } from '../http/oid4vci-router.js';
import type { SdJwtIssuerKeys } from '../sd-jwt-issuer/sd-jwt-issuer-key.js';
import type { TokenStatusLists } from '../status/token-status-lists.js';
import { credentialOfferRouter } from './credential-offer-router.js';
import { DpopNonces } from './dpop-nonces.js';
import { Oid4vciIssuance } from './oid4vci-issuance.js';
import { Oid4vciStore } from './oid4vci-store.js';

export interface Oid4vciWiring {
  /** The offers, pre-authorized codes and nonces (KvStore) and their one-time uses (SQL). */
  store: Oid4vciStore;
  /** The OpenID4VCI credential issuer (docs/api.md §10). */
  issuance: Oid4vciIssuance;
  /**
   * Its routes, in mounting order, before the /v2/did router: the wallet-facing issuer (own body
   * parsers, OAuth error shape) and the user's POST /v2/did/credential-offer.
   */
  routers: Router[];
}

/**
 * OpenID4VCI issuance at `<publicUrl>/v2/did/oid4vci`: VCs signed the way create-vc signs them
 * (`credentials`), offers ending with the user's account epoch, the nonce endpoint limited per
 * client address (OID4VCI_NONCES_PER_IP_PER_MINUTE; 0: off), DPoP nonces in the KvStore. With
 * `sdJwtIssuerKeys` and `tokenStatusLists` also SD-JWT VCs (configuration itp_profile_sd_jwt,
 * contract §15); without either, that configuration is off.
 */
export function wireOid4vci(
  config: DidConfig,
  logger: Logger,
  parts: {
    publicUrl: string;
    kv: KvStore;
    database: SqlDatabase<DidTables>;
    agent: DidAgent;
    credentials: IssueCredentialDeps;
    users: UserAuthentication;
    /** The SD-JWT VC issuer key (ES256, x5c). */
    sdJwtIssuerKeys?: SdJwtIssuerKeys | undefined;
    /** The SD-JWT VCs' status entries (IETF Token Status List). */
    tokenStatusLists?: TokenStatusLists | undefined;
    now?: (() => number) | undefined;
  },
): Oid4vciWiring {
  const store = new Oid4vciStore(parts.kv, parts.database);
  const now = parts.now ?? Date.now;
  const { sdJwtIssuerKeys, tokenStatusLists } = parts;
  const issuance = new Oid4vciIssuance({
    publicUrl: parts.publicUrl,
    store,
    credentials: parts.credentials,
    resolveDid: (did) => parts.agent.resolveDid({ didUrl: did }),
    // A fresh answer, not the cache: the offer must not outlive a reset by the cache's seconds.
    accounts: { epochOf: (userId) => parts.users.activeUsers.currentEpochOf(userId) },
    dpopNonces: new DpopNonces(parts.kv, now),
    ...(sdJwtIssuerKeys && tokenStatusLists
      ? { sdJwt: { keys: sdJwtIssuerKeys, statusLists: tokenStatusLists } }
      : {}),
    logger,
    now,
  });
  const wallets = oid4vciRouter({
    issuance,
    bodyLimitBytes: config.BODY_LIMIT_BYTES,
    logger,
    ...(config.OID4VCI_NONCES_PER_IP_PER_MINUTE > 0
      ? {
          noncesPerAddress: {
            limiter: new RateLimiter(parts.kv),
            limit: {
              name: 'oid4vci-nonce',
              what: 'OpenID4VCI nonces',
              max: config.OID4VCI_NONCES_PER_IP_PER_MINUTE,
              windowMs: 60_000,
            },
          },
        }
      : {}),
  });
  const offers = credentialOfferRouter({
    issuance,
    users: parts.users,
    bodyLimitBytes: config.BODY_LIMIT_BYTES,
  });
  return { store, issuance, routers: [wallets, offers] };
}
