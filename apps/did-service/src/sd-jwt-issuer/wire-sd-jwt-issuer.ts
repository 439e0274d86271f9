import { isIP } from 'node:net';
import { join } from 'node:path';
import type { Router } from 'express';
import type { JWK } from 'jose';
import { ConfigError, type Logger } from '@itp/service-kit';
import type { SqlDatabase } from '@itp/stores';
import { loadOrCreateDevPki } from '@itp/x509';
import { KmsKeyUnavailableError, type KmsKeys } from '../agent/kms-keyring.js';
import type { DidConfig } from '../config.js';
import type { DidTables } from '../db/did-tables.js';
import { didWebOf, type DidWeb } from './did-web.js';
import { IssuerKeySeal } from './issuer-key-seal.js';
import { IssuerKeyStore } from './issuer-key-store.js';
import { LocalSdJwtIssuerKey } from './local-sd-jwt-issuer-key.js';
import type { SdJwtIssuerKeys } from './sd-jwt-issuer-key.js';
import { sdJwtIssuerRouter } from './sd-jwt-issuer-router.js';
import {
  StoredSdJwtIssuerKeys,
  type DevIssuer,
  type PublishedSdJwtIssuerKeys,
} from './stored-sd-jwt-issuer-keys.js';

export interface SdJwtIssuerWiring {
  /**
   * The key that signs SD-JWT VCs and their token status lists; undefined: SD-JWT VC issuance is
   * off (outside development with no key imported).
   */
  keys: SdJwtIssuerKeys | undefined;
  /**
   * `GET /.well-known/did.json` and `GET /v2/did/oid4vci/issuer-ca.pem` (public port): mount it
   * before OpenID4VCI's routers.
   */
  router: Router;
}

export interface SdJwtIssuerParts {
  database: SqlDatabase<DidTables>;
  /** The local KMS's keys: the issuer keys are sealed with them (DID_KMS_SECRET_KEY). */
  kmsKeys: KmsKeys;
  /** PUBLIC_URL (development without it: the service's own address). */
  publicUrl: string;
  /** Instead of the stored keys (tests). */
  keys?: SdJwtIssuerKeys | undefined;
  now?: (() => number) | undefined;
}

/**
 * The SD-JWT VC issuer key (contract §15): the operator-imported key of did_sd_jwt_issuer_keys
 * (`sd-jwt-issuer import`), read at start and re-read at most every minute; in development with
 * nothing imported, the dev PKI's issuer leaf (DATA_DIR/secrets); otherwise none, with one
 * warning. A stored key no configured DID_KMS key opens stops the start (KmsKeyUnavailableError).
 */
export async function wireSdJwtIssuer(
  config: Pick<DidConfig, 'APP_ENV' | 'DATA_DIR'>,
  logger: Logger,
  parts: SdJwtIssuerParts,
): Promise<SdJwtIssuerWiring> {
  if (parts.keys) return { keys: parts.keys, router: sdJwtIssuerRouter(publishing(parts.keys)) };
  const didWeb = didWebOf(parts.publicUrl);
  if (didWeb.pathWarning) logger.warn(didWeb.pathWarning);
  const store = new IssuerKeyStore(parts.database, new IssuerKeySeal(parts.kmsKeys), parts.now);
  const keys = await StoredSdJwtIssuerKeys.open({
    store,
    didWeb,
    dev: config.APP_ENV === 'development' ? await devIssuer(config, didWeb, logger) : undefined,
    logger,
    ...(parts.now ? { now: parts.now } : {}),
  }).catch((err: unknown) => {
    if (!(err instanceof KmsKeyUnavailableError)) throw err;
    throw new ConfigError([
      `DID_KMS_SECRET_KEY / DID_KMS_PREVIOUS_SECRET_KEYS: a stored SD-JWT VC issuer key is sealed under key id "${err.sealedUnder}", which is not among these keys or has another value there: give the key it was stored with (during a rotation in DID_KMS_PREVIOUS_SECRET_KEYS, docs/operations.md)`,
    ]);
  });
  if (keys) {
    const current = await keys.current();
    logger.info({ kid: current.kid }, 'SD-JWT VC issuer key loaded');
  } else {
    logger.warn(
      'SD-JWT VC issuance is off: no issuer key is imported (node dist/cli.js sd-jwt-issuer import --key <file> --chain <file>, docs/operations.md); an import takes effect at the next start',
    );
  }
  return { keys, router: sdJwtIssuerRouter(keys) };
}

/**
 * The dev PKI's issuer leaf for PUBLIC_URL's host. A leaf names a DNS host, so for an IP address
 * (development without PUBLIC_URL: http://127.0.0.1:<PORT>) the leaf names `localhost` and a
 * warning says wallets that compare the iss with the leaf's SAN will refuse.
 */
async function devIssuer(
  config: Pick<DidConfig, 'DATA_DIR'>,
  didWeb: DidWeb,
  logger: Logger,
): Promise<DevIssuer> {
  let leafHost = didWeb.host;
  if (isIP(leafHost.replace(/^\[|\]$/g, '')) !== 0) {
    leafHost = 'localhost';
    logger.warn(
      `SD-JWT VC issuer (development): PUBLIC_URL's host ${didWeb.host} is an IP address; the dev issuer certificate names localhost, so wallets that match the iss against the x5c leaf's SAN refuse these credentials (set PUBLIC_URL=http://localhost:<port>)`,
    );
  }
  const pki = await loadOrCreateDevPki(join(config.DATA_DIR, 'secrets'), {
    verifierHost: leafHost,
  });
  const key = await LocalSdJwtIssuerKey.create({
    privateJwk: pki.issuer.privateKeyJwk as JWK,
    // Leaf only: the dev CA is the trust anchor, never sent in x5c (HAIP).
    x5c: pki.issuer.x5c.slice(0, 1),
    did: didWeb.did,
    rootPem: pki.caPem,
  });
  return { key, caPem: pki.caPem };
}

/** Any SdJwtIssuerKeys as the router reads them: its current key published, no dev CA. */
function publishing(keys: SdJwtIssuerKeys): PublishedSdJwtIssuerKeys {
  return {
    current: () => keys.current(),
    trustAnchorsPem: () => keys.trustAnchorsPem(),
    published: async () => [await keys.current()],
    devCaPem: async () => undefined,
  };
}
