import type { DataSource } from 'typeorm';
import { setGlobalConfig } from '@openid4vc/utils';
import { createJwtVerifier } from '@itp/auth-jwt';
import {
  chainCircuitLog,
  chainClientOptions,
  chainReadinessCheck,
  createChainClient,
  type ChainClient,
} from '@itp/chain';
import { createEthersProvider } from '@itp/chain/ethers';
import { DEV_CHAIN } from '@itp/dev-chain/constants';
import { ServiceUnavailableError } from '@itp/errors';
import {
  serviceReadinessCheck,
  ConfigError,
  HttpService,
  defineApp,
  type Logger,
  type ResourceScope,
} from '@itp/service-kit';
import {
  kvReadinessCheck,
  openAppStores,
  resolveDatabaseUrl,
  sqlReadinessCheck,
  RateLimiter,
} from '@itp/stores';
import { createDidAgent, type DidAgent } from './agent/create-did-agent.js';
import { createSigningPool } from './agent/signing-pool.js';
import { KmsSecretBox } from './agent/kms-keyring.js';
import { assertKmsKeysReadable } from './agent/kms-rotation.js';
import { createResolutionCache } from './agent/resolution-cache.js';
import { openVeramoDataSource } from './agent/veramo-data-source.js';
import { didMigrations, type DidTables } from './db/did-tables.js';
import { HolderBindings } from './db/holder-bindings.js';
import { IssuedCredentialStore } from './db/issued-credentials.js';
import { StatusListStore } from './db/status-lists.js';
import { didServiceConfigSchema, type DidConfig } from './config.js';
import type { CredentialContext } from './credentials/credential-context.js';
import { ensureServiceDids, type ServiceDids } from './dids/service-dids.js';
import { didRouter } from './http/did-router.js';
import { oid4vciRouter } from './http/oid4vci-router.js';
import { Oid4vciIssuance } from './oid4vci/oid4vci-issuance.js';
import { Oid4vciStore } from './oid4vci/oid4vci-store.js';
import { internalRouter } from './http/internal-router.js';
import { resolveSecrets } from './secrets.js';
import { CredentialStatusChecker } from './status/credential-status.js';
import { agentSignerCheck } from './status/revoke-credential.js';
import { StatusIndexAllocator } from './status/status-index-allocator.js';
import { StatusListPublisher } from './status/status-list-publisher.js';
import { ANY_BASE_STATUS_LIST_URLS, StatusListUrls } from './status/status-list-urls.js';
import { ActiveUsers } from './users/active-users.js';
import { AuthServiceUserStatus } from './users/auth-service-user-status.js';
import type { UserStatusPort } from './users/user-status-port.js';
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
}

export interface DidServiceParts {
  service: HttpService;
  agent: DidAgent;
  serviceDids: ServiceDids;
  bindings: HolderBindings;
  statusLists: StatusListStore;
  /** Signs and keeps the status list credentials GET /v2/did/status-lists/<listId> answers. */
  statusPublisher: StatusListPublisher;
  /** The OpenID4VCI credential issuer (§10) and its offers / codes / nonces. */
  oid4vci: Oid4vciIssuance;
  oid4vciStore: Oid4vciStore;
}

const APP_NAME = 'did-service';

/**
 * Wires did-service: stores, chain, the Veramo agent (agent/create-did-agent.ts, the one place it
 * is wired), the issuer / verifier DIDs (created on first start), and the /v2/did and
 * /internal/v1 routers. Every resource is opened through `scope` (closed when a start fails and
 * when the service shuts down).
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
  const statusUrls = new StatusListUrls(publicUrl(config));
  const chain: ChainClient = await scope.open(
    'chain',
    () => createChainClient(chainClientOptions(config, chainCircuitLog(logger))),
    (client) => client.close(),
  );
  const chainId = config.CHAIN_ID ?? (await chain.chainId());
  assertDidNetworkMatchesChain(config.DID_NETWORK, chainId);
  const provider = await scope.open(
    'ethers-provider',
    () =>
      createEthersProvider(config.ETH_RPC_URL, chainId, {
        timeoutMs: config.ETH_RPC_TIMEOUT_MS,
      }),
    (p) => p.destroy(),
  );
  const dataSource: DataSource = await scope.open(
    'veramo-store',
    () => openVeramoDataSource(resolveDatabaseUrl(config, APP_NAME), { logger }),
    (ds) => ds.destroy(),
  );
  // Every stored service key must open with DID_KMS_SECRET_KEY / DID_KMS_PREVIOUS_SECRET_KEYS.
  const kmsSecretBox = new KmsSecretBox(secrets.kmsKeys);
  await assertKmsKeysReadable(dataSource, kmsSecretBox, logger);

  const wallet =
    overrides.wallet ??
    new TokenRpcWallet({
      baseUrl: config.TOKEN_RPC_INTERNAL_URL,
      internalApiToken: secrets.tokenRpcToken,
      timeoutMs: config.WALLET_TIMEOUT_MS,
    });
  const signer =
    config.DID_SIGNING_THREADS > 0
      ? await scope.open(
          'signing-threads',
          async () => createSigningPool(config.DID_SIGNING_THREADS),
          (pool) => pool.close(),
        )
      : undefined;
  const agent = createDidAgent({
    signer,
    dataSource,
    kmsSecretBox,
    wallet,
    chain: { provider, chainId, registry },
    didNetwork: config.DID_NETWORK,
    resolutionCache: createResolutionCache({
      ttlMs: config.DID_RESOLUTION_CACHE_TTL_MS,
      max: config.DID_RESOLUTION_CACHE_MAX,
    }),
  });
  const serviceDids = await ensureServiceDids(agent, {
    issuerAliases: config.DID_ISSUER_ALIASES,
    verifierAliases: config.DID_VERIFIER_ALIASES,
    didNetwork: config.DID_NETWORK,
    logger,
  });

  const bindings = new HolderBindings(database);
  const statusLists = new StatusListStore(database);
  const statusPublisher = new StatusListPublisher({ store: statusLists, agent, urls: statusUrls });
  const context: CredentialContext = {
    agent,
    serviceDids,
    status: new CredentialStatusChecker(statusLists, statusUrls),
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
  const users = {
    verifier: createJwtVerifier({
      jwksUrl: new URL('/v2/auth/.well-known/jwks.json', config.AUTH_SERVICE_URL).toString(),
      issuer: config.JWT_ISSUER,
      audience: config.JWT_AUDIENCE,
    }),
    activeUsers: new ActiveUsers(
      overrides.userStatus ??
        new AuthServiceUserStatus({
          baseUrl: config.AUTH_SERVICE_INTERNAL_URL,
          internalApiToken: secrets.authServiceToken,
        }),
      { cacheMs: config.USER_STATUS_CACHE_MS, logger },
    ),
    stepUpMaxAgeSeconds: config.STEP_UP_MAX_AGE_SECONDS,
  };

  const credentials = {
    ...context,
    bindings,
    vcLifetimeSeconds: config.VC_LIFETIME_SECONDS,
    allocator: new StatusIndexAllocator(statusLists, config.STATUS_LIST_LENGTH),
    statusUrls,
    issuedCredentials: new IssuedCredentialStore(database),
  };
  const oid4vciStore = new Oid4vciStore(kv, database);
  const oid4vci = new Oid4vciIssuance({
    publicUrl: publicUrl(config),
    store: oid4vciStore,
    credentials,
    resolveDid: (did) => agent.resolveDid({ didUrl: did }),
    // A fresh answer, not the cache: the offer must not outlive a reset by the cache's seconds.
    accounts: { epochOf: (userId) => users.activeUsers.currentEpochOf(userId) },
    logger,
    ...(overrides.now ? { now: overrides.now } : {}),
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
  // The wallet-facing OpenID4VCI routes first: their own body parsers and OAuth error shape.
  service.app.use(
    oid4vciRouter({
      issuance: oid4vci,
      bodyLimitBytes: config.BODY_LIMIT_BYTES,
      logger,
      ...(config.OID4VCI_NONCES_PER_IP_PER_MINUTE > 0
        ? {
            noncesPerAddress: {
              limiter: new RateLimiter(kv),
              limit: {
                name: 'oid4vci-nonce',
                what: 'OpenID4VCI nonces',
                max: config.OID4VCI_NONCES_PER_IP_PER_MINUTE,
                windowMs: 60_000,
              },
            },
          }
        : {}),
    }),
  );
  service.app.use(
    didRouter({
      createDid: { agent, wallet, bindings, kv, didNetwork: config.DID_NETWORK, logger },
      credentials,
      status: {
        // Any public base: a VC issued under an earlier PUBLIC_URL is revocable too (the list's
        // issuer must have signed it).
        revoke: {
          verifySigner: agentSignerCheck(context),
          store: statusLists,
          urls: ANY_BASE_STATUS_LIST_URLS,
        },
        publisher: statusPublisher,
        maxAgeSeconds: config.STATUS_LIST_MAX_AGE_SECONDS,
      },
      users,
      oid4vci,
      bodyLimitBytes: config.BODY_LIMIT_BYTES,
    }),
  );
  // OpenID4VP response URIs over http: development and test only (loopback stacks). The
  // library's setting is process-wide; production never turns it on.
  const allowInsecureUrls = config.APP_ENV !== 'production';
  if (allowInsecureUrls) setGlobalConfig({ allowInsecureUrls: true });
  // auth-service's calls: on the internal listener only (INTERNAL_PORT), never the public port.
  service.internal.use(
    internalRouter({
      login: { ...context, bindings, maxAgeSeconds: config.VP_LOGIN_MAX_AGE_SECONDS },
      oid4vp: { allowInsecureUrls },
      // The user's open offers end with the account epoch: OpenID4VCI refuses an offer made
      // before the user's tokensValidAfter (ActiveUsers.epochOf).
      userCredentials: { store: statusLists, logger },
      internalApiToken: secrets.acceptedInternalApiTokens,
      bodyLimitBytes: config.BODY_LIMIT_BYTES,
    }),
  );
  return {
    service,
    agent,
    serviceDids,
    bindings,
    statusLists,
    statusPublisher,
    oid4vci,
    oid4vciStore,
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

/** The ERC-1056 registry: DID_REGISTRY_ADDRESS; in development the dev chain's default. */
function registryAddress(config: DidConfig): string {
  if (config.DID_REGISTRY_ADDRESS) return config.DID_REGISTRY_ADDRESS;
  if (config.APP_ENV === 'development') return DEV_CHAIN.didRegistryAddress;
  throw new ConfigError([
    `DID_REGISTRY_ADDRESS: required when APP_ENV=${config.APP_ENV} (the ERC-1056 registry on the chain)`,
  ]);
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

/**
 * DID_NETWORK given as a hex chain id must be the chain's: a DID naming another chain would send
 * every other resolver to the wrong chain.
 */
function assertDidNetworkMatchesChain(didNetwork: string | undefined, chainId: number): void {
  if (didNetwork?.startsWith('0x') && BigInt(didNetwork) !== BigInt(chainId)) {
    throw new ConfigError([
      `DID_NETWORK: ${didNetwork} is not the chain id of ETH_RPC_URL (0x${chainId.toString(16)}); use that or a network name`,
    ]);
  }
}
