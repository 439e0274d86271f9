import type { DataSource } from 'typeorm';
import { createJwtVerifier } from '@itp/auth-jwt';
import {
  DEV_CHAIN,
  chainReadinessCheck,
  createChainClient,
  createEthersProvider,
  type ChainClient,
} from '@itp/chain';
import { ServiceUnavailableError } from '@itp/errors';
import { ConfigError, Service, type Logger } from '@itp/service-kit';
import {
  createKvStore,
  kvReadinessCheck,
  migrateToLatest,
  openSqlDatabase,
  resolveStoreUrls,
  sqlReadinessCheck,
  type KvStore,
  type SqlDatabase,
} from '@itp/stores';
import { createDidAgent, type DidAgent } from './agent/create-did-agent.js';
import { createResolutionCache } from './agent/resolution-cache.js';
import { openVeramoDataSource } from './agent/veramo-data-source.js';
import { didMigrations, type DidTables } from './bindings/did-tables.js';
import { HolderBindings } from './bindings/holder-bindings.js';
import type { DidConfig } from './config.js';
import type { CredentialContext } from './credentials/credential-context.js';
import { CreateDidAttempts } from './dids/create-did-attempts.js';
import { ensureServiceDids, type ServiceDids } from './dids/service-dids.js';
import { didRouter } from './http/did-router.js';
import { internalRouter } from './http/internal-router.js';
import { resolveSecrets } from './secrets/resolve-secrets.js';
import { TokenRpcWallet } from './wallet/token-rpc-wallet.js';
import type { WalletPort } from './wallet/wallet-port.js';

/** Parts a test may swap or inspect. */
export interface DidAppOverrides {
  /** Instead of token-rpc's wallet. */
  wallet?: WalletPort;
}

export interface DidApp {
  service: Service;
  agent: DidAgent;
  serviceDids: ServiceDids;
}

/**
 * Composition root of did-service: stores, chain, the Veramo agent (agent/create-did-agent.ts,
 * the one place it is wired), the issuer / verifier DIDs (created on first start), and the
 * /v2/did and /internal/v1 routers.
 */
export async function buildApp(config: DidConfig, logger: Logger): Promise<Service> {
  return (await buildDidApp(config, logger)).service;
}

export async function buildDidApp(
  config: DidConfig,
  logger: Logger,
  overrides: DidAppOverrides = {},
): Promise<DidApp> {
  const secrets = resolveSecrets(config);
  const registry = registryAddress(config);
  const urls = resolveStoreUrls(config, 'did-service');
  const closers: Array<() => Promise<unknown> | unknown> = [];
  try {
    const kv: KvStore = createKvStore({
      redisUrl: urls.redisUrl,
      keyPrefix: config.REDIS_KEY_PREFIX ?? 'did:',
      logger,
    });
    closers.push(() => kv.close());
    const database: SqlDatabase<DidTables> = openSqlDatabase<DidTables>(urls.databaseUrl, {
      logger,
    });
    closers.push(() => database.close());
    await migrateToLatest(database, didMigrations);
    const chain: ChainClient = createChainClient({
      rpcUrl: config.ETH_RPC_URL,
      timeoutMs: config.ETH_RPC_TIMEOUT_MS,
    });
    closers.push(() => chain.close());
    const chainId = config.CHAIN_ID ?? (await chain.chainId());
    const provider = createEthersProvider(config.ETH_RPC_URL, chainId, {
      timeoutMs: config.ETH_RPC_TIMEOUT_MS,
    });
    closers.push(() => provider.destroy());
    const dataSource: DataSource = await openVeramoDataSource(urls.databaseUrl, { logger });
    closers.push(() => dataSource.destroy());

    const wallet =
      overrides.wallet ??
      new TokenRpcWallet({
        baseUrl: config.TOKEN_RPC_URL,
        internalApiToken: secrets.internalApiToken,
        timeoutMs: config.WALLET_TIMEOUT_MS,
      });
    const agent = createDidAgent({
      dataSource,
      kmsSecretKey: secrets.kmsSecretKey,
      wallet,
      chain: { provider, chainId, registry },
      resolutionCache: createResolutionCache({
        ttlMs: config.DID_RESOLUTION_CACHE_TTL_MS,
        max: config.DID_RESOLUTION_CACHE_MAX,
      }),
    });
    const serviceDids = await ensureServiceDids(agent, {
      issuerAliases: config.DID_ISSUER_ALIASES,
      verifierAliases: config.DID_VERIFIER_ALIASES,
      logger,
    });

    const bindings = new HolderBindings(database);
    const context: CredentialContext = {
      agent,
      serviceDids,
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
    const users = createJwtVerifier({
      jwksUrl: new URL('/v2/auth/.well-known/jwks.json', config.AUTH_SERVICE_URL).toString(),
      issuer: config.JWT_ISSUER,
      audience: config.JWT_AUDIENCE,
    });

    const service = new Service({ name: 'did-service', config, logger });
    service
      .addReadinessCheck(kvReadinessCheck(kv))
      .addReadinessCheck(sqlReadinessCheck(database))
      .addReadinessCheck({
        name: 'veramo-store',
        check: async () => void (await dataSource.query('SELECT 1')),
      })
      .addReadinessCheck(chainReadinessCheck(chain));
    for (const close of closers) service.onShutdown(close);

    service.app.use(
      didRouter({
        createDid: {
          agent,
          wallet,
          bindings,
          kv,
          logger,
          attempts: new CreateDidAttempts(kv, {
            maxFailures: config.CREATE_DID_MAX_FAILURES,
            windowSeconds: config.CREATE_DID_FAILURE_WINDOW_SECONDS,
          }),
        },
        credentials: { ...context, bindings, vcLifetimeSeconds: config.VC_LIFETIME_SECONDS },
        users,
        bodyLimitBytes: config.BODY_LIMIT_BYTES,
      }),
    );
    service.app.use(
      internalRouter({
        login: { ...context, bindings, maxAgeSeconds: config.VP_LOGIN_MAX_AGE_SECONDS },
        internalApiToken: secrets.internalApiToken,
        bodyLimitBytes: config.BODY_LIMIT_BYTES,
      }),
    );
    return { service, agent, serviceDids };
  } catch (err) {
    for (const close of closers.reverse())
      await Promise.resolve()
        .then(close)
        .catch(() => undefined);
    throw err;
  }
}

/** The ERC-1056 registry: DID_REGISTRY_ADDRESS; in development the dev chain's default. */
function registryAddress(config: DidConfig): string {
  if (config.DID_REGISTRY_ADDRESS) return config.DID_REGISTRY_ADDRESS;
  if (config.APP_ENV === 'development') return DEV_CHAIN.didRegistryAddress;
  throw new ConfigError([
    `DID_REGISTRY_ADDRESS: required when APP_ENV=${config.APP_ENV} (the ERC-1056 registry on the chain)`,
  ]);
}
