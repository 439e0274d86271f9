import {
  chainCircuitLog,
  chainReadinessCheck,
  openChainClient,
  type ChainClient,
} from '@itp/chain';
import { RpcServer, jsonRpcRouter, rateLimitedMethods } from '@itp/jsonrpc';
import { BLOCK_SERVICE_ERRORS, summarizeServiceErrors } from '@itp/schemas';
import {
  HttpService,
  defineApp,
  type Logger,
  type ResourceScope,
  type RunningService,
} from '@itp/service-kit';
import {
  RateLimiter,
  kvReadinessCheck,
  openAppStores,
  sqlReadinessCheck,
  type KvStore,
  type RateLimit,
  type SqlDatabase,
} from '@itp/stores';
import { BlockService } from './blocks/block-service.js';
import { createCacheMetrics } from './cache/cache-metrics.js';
import { chainNamespace } from './cache/chain-namespace.js';
import { FinalCache } from './cache/final-cache.js';
import { TipCache } from './cache/tip-cache.js';
import { HeadTracker } from './chain/head-tracker.js';
import { blockRpcConfigSchema, readLimitPerMinute, type BlockRpcConfig } from './config.js';
import type { BlockDb } from './db/block-db.js';
import { blockFastPath } from './http/block-fast-path.js';
import { clientAddress, type TrustProxyFn } from './http/client-address.js';
import { indexHealthRouter } from './http/index-health.js';
import { BLOCK_RPC_MIGRATION_TABLE, blockRpcMigrations } from './db/migrations.js';
import { BlockIndexStore } from './indexer/block-index-store.js';
import { BlockIndexer } from './indexer/block-indexer.js';
import { createIndexMetrics } from './indexer/index-metrics.js';
import { getBlockMethod, getBlockNumberMethod } from './rpc/block-methods.js';
import { getTransactionStatsMethod } from './rpc/stats-methods.js';
import { getTransactionMethod, getTransactionReceiptMethod } from './rpc/transaction-methods.js';
import { StatsService } from './stats/stats-service.js';
import { TransactionService } from './transactions/transaction-service.js';

export const SERVICE_NAME = 'block-rpc';
export const API_VERSION = '1.0.0';

/** What tests may hand the wiring instead of building it from config. */
export interface BlockRpcOverrides {
  /** A chain client to use (e.g. a counting wrapper); closed on shutdown like an own one. */
  chain?: ChainClient;
  /** Start the indexer's polling loop (default true); tests may step it themselves. */
  autoStartIndexer?: boolean;
  /** Answer getBlock of final blocks in memory on node:http (default true; see blockFastPath). */
  fastPath?: boolean;
  /** The clock of the head and tip caches' TTLs (default: the real one). */
  now?: () => number;
}

/** The parts of a wired block API (tests reach into them). */
export interface BlockRpcParts {
  service: HttpService;
  rpc: RpcServer;
  chain: ChainClient;
  kv: KvStore;
  sql: SqlDatabase<BlockDb>;
  blocks: BlockService;
  transactions: TransactionService;
  stats: StatsService;
  indexStore: BlockIndexStore;
  /** Present when BLOCK_INDEX_ENABLED; polling unless autoStartIndexer is false. */
  indexer: BlockIndexer | undefined;
}

/**
 * The one wiring of the block API: everything is built here from the validated config and handed
 * down through constructors. Opens the chain client, the KV store and the database (and migrates
 * it) through `scope`; on shutdown the indexer stops first (lease released), then the database,
 * KV and chain client close.
 */
async function wireBlockRpc(
  config: BlockRpcConfig,
  logger: Logger,
  scope: ResourceScope,
  overrides: BlockRpcOverrides = {},
): Promise<BlockRpcParts> {
  const chain = await scope.open(
    'chain',
    () => overrides.chain ?? openChainClient(config, chainCircuitLog(logger)),
    (c) => c.close(),
  );
  const { kv, sql } = await openAppStores<BlockDb>(config, scope, logger, {
    app: SERVICE_NAME,
    keyPrefix: `${SERVICE_NAME}:`,
    migrations: { tableName: BLOCK_RPC_MIGRATION_TABLE, migrations: blockRpcMigrations },
  });

  const service = new HttpService({
    name: SERVICE_NAME,
    config,
    logger,
    quietPaths: ['/health/live', '/health/ready', '/health/index', '/metrics'],
  });
  const cacheMetrics = createCacheMetrics(service.metrics);
  const head = new HeadTracker({
    chain,
    ttlMs: config.BLOCK_TIP_TTL_MS,
    finalityDepth: config.BLOCK_FINALITY_DEPTH,
    logger,
    ...(overrides.now ? { now: overrides.now } : {}),
  });
  const final = new FinalCache({
    kv,
    maxEntries: config.BLOCK_CACHE_SIZE,
    maxBytes: config.BLOCK_CACHE_MAX_BYTES,
    kvTtlMs: config.BLOCK_CACHE_KV_TTL_MS,
    namespace: chainNamespace(chain),
    logger,
    metrics: cacheMetrics,
  });
  const tip = new TipCache(config.BLOCK_TIP_TTL_MS, 1_000, cacheMetrics, overrides.now);
  const blocks = new BlockService({ chain, head, final, tip });
  const transactions = new TransactionService({ chain, head, final, tip });
  const indexStore = new BlockIndexStore(sql.db);
  const stats = new StatsService(indexStore, config.STATS_MAX_DAYS);

  const indexMetrics = createIndexMetrics(service.metrics, {
    head: () => head.latest(),
    indexedTip: async () => (await indexStore.tip())?.number ?? -1,
  });
  const indexer = config.BLOCK_INDEX_ENABLED
    ? new BlockIndexer({
        chain,
        store: indexStore,
        logger: logger.child({ component: 'block-indexer' }),
        metrics: indexMetrics,
        pollMs: config.BLOCK_INDEX_POLL_MS,
        startBlock: config.BLOCK_INDEX_START,
        batchSize: config.BLOCK_INDEX_BATCH,
        leaseMs: config.BLOCK_INDEX_LEASE_MS,
      })
    : undefined;

  // One counter of every call per client address (RATE_LIMIT_READ_PER_MINUTE), as token-rpc's
  // reads: in Redis, so that every replica counts together.
  const rateLimiter = new RateLimiter(kv);
  const readLimit: RateLimit = {
    name: 'read',
    what: 'block API calls',
    max: readLimitPerMinute(config),
    windowMs: 60_000,
  };
  const methods = [
    getBlockMethod(blocks),
    getBlockNumberMethod(blocks),
    getTransactionMethod(transactions),
    getTransactionReceiptMethod(transactions),
    getTransactionStatsMethod(stats, config.STATS_MAX_DAYS),
  ];
  const rpc = new RpcServer({
    info: {
      title: 'Block API',
      version: API_VERSION,
      description:
        'Block information of the chain over JSON-RPC 2.0 (POST /block): getBlock, getBlockNumber, ' +
        'getTransaction, getTransactionReceipt, getTransactionStats. Service errors ' +
        `(result.resultCode): ${summarizeServiceErrors(BLOCK_SERVICE_ERRORS)}.`,
    },
    methods: rateLimitedMethods(
      methods,
      rateLimiter,
      Object.fromEntries(methods.map((method) => [method.name, readLimit])),
    ),
    logger,
    servers: [{ name: 'block', url: '/block' }],
    publicUrl: config.PUBLIC_URL,
  });
  // The OpenRPC servers[].url uses the origin the client reached, as a trusted gateway reports it.
  service.app.set('trust proxy', config.TRUST_PROXY);
  service.app.use('/block', jsonRpcRouter(rpc, { bodyLimitBytes: config.BODY_LIMIT_BYTES }));
  if (overrides.fastPath ?? true) {
    // A getBlock of a final block in memory skips express; everything else reaches the router.
    const app = service.app;
    const trust = app.get('trust proxy fn') as TrustProxyFn;
    service.setRawRoutes(
      blockFastPath({
        service,
        blocks,
        bodyLimitBytes: config.BODY_LIMIT_BYTES,
        fallback: (req, res) => app(req, res),
        logger,
        ...(readLimit.max > 0
          ? { countCall: (req) => rateLimiter.take(readLimit, clientAddress(req, trust)) }
          : {}),
      }),
    );
  }
  service.app.use(indexHealthRouter(indexer));

  // The indexer is not a readiness condition (a stalled one is reported at /health/index): the
  // block API answers without it, and all replicas share the one index.
  service
    .addReadinessCheck(sqlReadinessCheck(sql))
    .addReadinessCheck(kvReadinessCheck(kv))
    .addReadinessCheck(chainReadinessCheck(chain));

  if (indexer) {
    // Registered after the stores: it stops (and gives its lease up) before they close.
    scope.onClose('indexer', () => indexer.stop());
    if (overrides.autoStartIndexer ?? true) indexer.start();
  }

  return { service, rpc, chain, kv, sql, blocks, transactions, stats, indexStore, indexer };
}

/** The block API as runMain starts it. */
export const buildApp = defineApp(
  SERVICE_NAME,
  blockRpcConfigSchema,
  async (config, logger, scope) => (await wireBlockRpc(config, logger, scope)).service,
);

/** A block API built for tests: the same wiring, its parts, and overrides. */
export interface BlockRpcApp extends BlockRpcParts {
  config: BlockRpcConfig;
  logger: Logger;
  listen(): Promise<RunningService>;
  /** Drains the HTTP server, stops the indexer, then closes the database, KV and chain client. */
  close(): Promise<void>;
}

/** Builds the block API like buildApp, through the same wiring, with test overrides. */
export async function buildBlockRpc(
  config: BlockRpcConfig,
  logger: Logger,
  overrides: BlockRpcOverrides = {},
): Promise<BlockRpcApp> {
  let parts: BlockRpcParts | undefined;
  const build = defineApp(SERVICE_NAME, blockRpcConfigSchema, async (c, l, scope) => {
    parts = await wireBlockRpc(c, l, scope, overrides);
    return parts.service;
  });
  const service = await build(config, logger);
  if (!parts) throw new Error('block-rpc: the wiring returned no parts');
  return {
    ...parts,
    config,
    logger,
    listen: () => service.listen(),
    close: () => service.close(),
  };
}
