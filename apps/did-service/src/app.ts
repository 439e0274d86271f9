import {
  serviceReadinessCheck,
  ConfigError,
  HttpService,
  defineApp,
  type Logger,
  type ResourceScope,
} from '@itp/service-kit';
import { chainReadinessCheck } from '@itp/chain';
import { kvReadinessCheck, openAppStores, sqlReadinessCheck } from '@itp/stores';
import type { DidAgent } from './agent/create-did-agent.js';
import { registryAddress, wireAgent } from './agent/wire-agent.js';
import { didMigrations, type DidTables } from './db/did-tables.js';
import { HolderBindings } from './db/holder-bindings.js';
import type { StatusListStore } from './db/status-lists.js';
import { didServiceConfigSchema, type DidConfig } from './config.js';
import { wireCredentials } from './credentials/wire-credentials.js';
import type { ServiceDids } from './dids/service-dids.js';
import { wireDids } from './dids/wire-dids.js';
import { didRouter } from './http/did-router.js';
import { internalRouter } from './http/internal-router.js';
import { wireLogin } from './login/wire-login.js';
import type { Oid4vciIssuance } from './oid4vci/oid4vci-issuance.js';
import type { Oid4vciStore } from './oid4vci/oid4vci-store.js';
import { wireOid4vci } from './oid4vci/wire-oid4vci.js';
import { wireOid4vp } from './oid4vp/wire-oid4vp.js';
import { resolveSecrets } from './secrets.js';
import type { SdJwtIssuerKeys } from './sd-jwt-issuer/sd-jwt-issuer-key.js';
import { wireSdJwtIssuer } from './sd-jwt-issuer/wire-sd-jwt-issuer.js';
import type { StatusListPublisher } from './status/status-list-publisher.js';
import type { TokenStatusListPublisher } from './status/token-status-list-publisher.js';
import type { TokenStatusLists } from './status/token-status-lists.js';
import { statusRoutes, wireStatus, wireTokenStatusLists } from './status/wire-status.js';
import type { UserStatusPort } from './users/user-status-port.js';
import { wireUsers } from './users/wire-users.js';
import { TokenRpcWallet } from './wallet/token-rpc-wallet.js';
import type { WalletPort } from './wallet/wallet-port.js';

/** Parts a test may swap or inspect. */
export interface DidAppOverrides {
  /** Instead of token-rpc's wallet. */
  wallet?: WalletPort;
  /** Instead of auth-service's users/status. */
  userStatus?: UserStatusPort;
  /** The clock of the OpenID4VCI one-time rules (expiry of codes and nonces). */
  now?: () => number;
  /** Instead of the configured SD-JWT issuer key (specs of SD-JWT VCs and their status lists). */
  sdJwtIssuerKeys?: SdJwtIssuerKeys;
}

export interface DidServiceParts {
  service: HttpService;
  agent: DidAgent;
  serviceDids: ServiceDids;
  bindings: HolderBindings;
  statusLists: StatusListStore;
  /** Signs and keeps the status list credentials GET /v2/did/status-lists/<listId> answers. */
  statusPublisher: StatusListPublisher;
  /** The SD-JWT VC issuer key; undefined: SD-JWT VC issuance is off (sd-jwt-issuer/). */
  sdJwtIssuerKeys: SdJwtIssuerKeys | undefined;
  /** SD-JWT VCs' IETF token status list entries (contract §15). */
  tokenStatusLists: TokenStatusLists;
  /** Signs the tokens GET /v2/did/token-status-lists/<listId> answers. */
  tokenStatusPublisher: TokenStatusListPublisher;
  /** The OpenID4VCI credential issuer (§10) and its offers / codes / nonces. */
  oid4vci: Oid4vciIssuance;
  oid4vciStore: Oid4vciStore;
}

const APP_NAME = 'did-service';

/**
 * Wires did-service: stores, then each feature through its own `wire<Feature>` beside its code
 * (agent/, dids/, status/, credentials/, users/, oid4vci/, login/, oid4vp/), then the routers:
 * OpenID4VCI's, the /v2/did router and the /internal/v1 router. Every resource is opened through
 * `scope` (closed when a start fails and when the service shuts down).
 */
async function wireDidService(
  config: DidConfig,
  logger: Logger,
  scope: ResourceScope,
  overrides: DidAppOverrides = {},
): Promise<DidServiceParts> {
  const secrets = resolveSecrets(config);
  const registry = registryAddress(config);
  const { kv, sql: database } = await openAppStores<DidTables>(config, scope, logger, {
    app: APP_NAME,
    keyPrefix: 'did:',
    migrations: didMigrations,
  });
  const base = publicUrl(config);
  const wallet =
    overrides.wallet ??
    new TokenRpcWallet({
      baseUrl: config.TOKEN_RPC_INTERNAL_URL,
      internalApiToken: secrets.tokenRpcToken,
      timeoutMs: config.WALLET_TIMEOUT_MS,
    });
  const { agent, chain, dataSource } = await wireAgent(config, logger, scope, {
    appName: APP_NAME,
    wallet,
    kmsKeys: secrets.kmsKeys,
    registry,
  });
  const bindings = new HolderBindings(database);
  const dids = await wireDids(config, logger, { agent, wallet, bindings, kv });
  const { serviceDids } = dids;
  const status = wireStatus(database, agent, base);
  // The SD-JWT VC issuer key (imported by the operator CLI; dev PKI in development; else off).
  const sdJwtIssuer = await wireSdJwtIssuer(config, logger, {
    database,
    kmsKeys: secrets.kmsKeys,
    publicUrl: base,
    keys: overrides.sdJwtIssuerKeys,
  });
  const tokenStatus = wireTokenStatusLists(status, {
    keys: sdJwtIssuer.keys,
    publicUrl: base,
    listLength: config.STATUS_LIST_LENGTH,
    maxAgeSeconds: config.STATUS_LIST_MAX_AGE_SECONDS,
  });
  const { context, credentials } = wireCredentials(config, {
    agent,
    serviceDids,
    chain,
    status,
    bindings,
    database,
  });
  const users = wireUsers(config, logger, {
    authServiceToken: secrets.authServiceToken,
    userStatus: overrides.userStatus,
  });
  const oid4vci = wireOid4vci(config, logger, {
    publicUrl: base,
    kv,
    database,
    agent,
    credentials,
    users,
    sdJwtIssuerKeys: sdJwtIssuer.keys,
    tokenStatusLists: tokenStatus.lists,
    now: overrides.now,
  });

  const service = new HttpService({ name: APP_NAME, config, logger });
  service
    .addReadinessCheck(kvReadinessCheck(kv))
    .addReadinessCheck(sqlReadinessCheck(database))
    .addReadinessCheck({
      name: 'veramo-store',
      check: async () => void (await dataSource.query('SELECT 1')),
    })
    .addReadinessCheck(chainReadinessCheck(chain))
    // The services did-service calls (aggregate readiness only: a token-rpc that is down makes
    // create-did and create-vc answer 503, it does not take did-service out of rotation).
    .addReadinessCheck(serviceReadinessCheck('token-rpc', config.TOKEN_RPC_INTERNAL_URL))
    .addReadinessCheck(serviceReadinessCheck('auth-service', config.AUTH_SERVICE_INTERNAL_URL));

  // The client address (per-address limits) as the gateway's hop reports it.
  service.app.set('trust proxy', config.TRUST_PROXY);
  // OpenID4VCI's routes first: the wallet-facing ones have their own body parsers and OAuth errors.
  // The issuer's did:web document and dev CA: before OpenID4VCI's routes (they answer all of
  // /v2/did/oid4vci).
  service.app.use(sdJwtIssuer.router);
  for (const router of oid4vci.routers) service.app.use(router);
  service.app.use(tokenStatus.router);
  service.app.use(
    didRouter({
      createDid: dids.createDid,
      credentials,
      status: statusRoutes(status, context, config.STATUS_LIST_MAX_AGE_SECONDS, tokenStatus),
      users,
      bodyLimitBytes: config.BODY_LIMIT_BYTES,
    }),
  );
  // auth-service's calls: on the internal listener only (INTERNAL_PORT), never the public port.
  service.internal.use(
    internalRouter({
      login: wireLogin(config, context, bindings),
      oid4vp: wireOid4vp(config, base),
      // A password reset revokes the user's credentials (users/revoke-credentials).
      userCredentials: { store: status.lists, logger },
      sdJwtIssuer: sdJwtIssuer.keys,
      internalApiToken: secrets.acceptedInternalApiTokens,
      bodyLimitBytes: config.BODY_LIMIT_BYTES,
    }),
  );
  return {
    service,
    agent,
    serviceDids,
    bindings,
    statusLists: status.lists,
    statusPublisher: status.publisher,
    sdJwtIssuerKeys: sdJwtIssuer.keys,
    tokenStatusLists: tokenStatus.lists,
    tokenStatusPublisher: tokenStatus.publisher,
    oid4vci: oid4vci.issuance,
    oid4vciStore: oid4vci.store,
  };
}

/** The composition root runMain calls (apps/did-service/src/main.ts). */
export const buildApp = defineApp(
  APP_NAME,
  didServiceConfigSchema,
  async (config, logger, scope) => (await wireDidService(config, logger, scope)).service,
);

/**
 * buildApp with access to its parts and test overrides: the same wiring and the same resource
 * handling (what a failed start opened is closed; the service closes it when it shuts down).
 */
export async function buildDidService(
  config: DidConfig,
  logger: Logger,
  overrides: DidAppOverrides = {},
): Promise<DidServiceParts> {
  let parts: DidServiceParts | undefined;
  const build = defineApp(APP_NAME, didServiceConfigSchema, async (c, l, scope) => {
    parts = await wireDidService(c, l, scope, overrides);
    return parts.service;
  });
  await build(config, logger);
  if (!parts) throw new Error('did-service was built without its parts');
  return parts;
}

/**
 * The public base of the status list URLs in issued VCs: PUBLIC_URL; in development without it,
 * this service's own address (it serves the lists itself).
 */
function publicUrl(config: DidConfig): string {
  if (config.PUBLIC_URL) return config.PUBLIC_URL;
  if (config.APP_ENV === 'development') return `http://127.0.0.1:${config.PORT}`;
  throw new ConfigError([
    `PUBLIC_URL: required when APP_ENV=${config.APP_ENV} (where clients reach the API: issued VCs name their status list under it)`,
  ]);
}
