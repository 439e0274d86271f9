import { chainReadinessCheck, openChainClient, type ChainClient } from '@itp/chain';
import { RpcServer, jsonRpcRouter } from '@itp/jsonrpc';
import { Service, createLogger, type Logger, type RunningService } from '@itp/service-kit';
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
import { getBlockMethod, getBlockNumberMethod } from './blocks/block-methods.js';
import { BlockService } from './blocks/block-service.js';
import { createCacheMetrics } from './cache/cache-metrics.js';
import { chainNamespace } from './cache/chain-namespace.js';
import { FinalCache } from './cache/final-cache.js';
import { TipCache } from './cache/tip-cache.js';
import { HeadTracker } from './chain/head-tracker.js';
import type { BlockRpcConfig } from './config.js';
import type { BlockDb } from './stats/block-db.js';
import { BlockIndexStore } from './stats/block-index-store.js';
import { BlockIndexer } from './stats/block-indexer.js';
import { createIndexMetrics } from './stats/index-metrics.js';
import { BLOCK_RPC_MIGRATION_TABLE, blockRpcMigrations } from './stats/migrations.js';
import { getTransactionStatsMethod } from './stats/stats-methods.js';
import { StatsService } from './stats/stats-service.js';
import {
  getTransactionMethod,
  getTransactionReceiptMethod,
} from './transactions/transaction-methods.js';
import { TransactionService } from './transactions/transaction-service.js';

export const SERVICE_NAME = 'block-rpc';
export const API_VERSION = '1.0.0';

/** What buildApp may be handed instead of building it from config (tests, tools). */
export interface BlockRpcDeps {
  logger?: Logger;
  /** A chain client to use (e.g. a counting wrapper); closed on shutdown like an own one. */
  chain?: ChainClient;
  /** Start the indexer's polling loop in listen() (default true); tests may step it themselves. */
  autoStartIndexer?: boolean;
}

export interface BlockRpcApp {
  config: BlockRpcConfig;
  logger: Logger;
  service: Service;
  rpc: RpcServer;
  chain: ChainClient;
  kv: KvStore;
  sql: SqlDatabase<BlockDb>;
  blocks: BlockService;
  transactions: TransactionService;
  stats: StatsService;
  indexStore: BlockIndexStore;
  /** Present when BLOCK_INDEX_ENABLED; started by listen() (unless autoStartIndexer is false). */
  indexer: BlockIndexer | undefined;
  listen(): Promise<RunningService>;
  /** Drains the HTTP server, stops the indexer, then closes the chain client, KV and database. */
  close(): Promise<void>;
}

/**
 * The composition root of the block API: everything is built here from the validated config and
 * handed down through constructors. Opens the database (and migrates it), the KV store and the
 * chain client; nothing listens until listen().
 */
export async function buildApp(
  config: BlockRpcConfig,
  deps: BlockRpcDeps = {},
): Promise<BlockRpcApp> {
  const logger = deps.logger ?? createLogger({ name: SERVICE_NAME, level: config.LOG_LEVEL });
  const urls = resolveStoreUrls(config, SERVICE_NAME);
  const chain = deps.chain ?? (await openChainClient(config));
  const kv = createKvStore({
    ...(urls.redisUrl ? { redisUrl: urls.redisUrl } : {}),
    keyPrefix: config.REDIS_KEY_PREFIX ?? `${SERVICE_NAME}:`,
    logger,
  });
  let sql: SqlDatabase<BlockDb>;
  try {
    sql = openSqlDatabase<BlockDb>(urls.databaseUrl, { logger });
    await migrateToLatest(sql, {
      tableName: BLOCK_RPC_MIGRATION_TABLE,
      migrations: blockRpcMigrations,
    });
  } catch (err) {
    await Promise.allSettled([kv.close(), chain.close()]);
    throw err;
  }

  const service = new Service({ name: SERVICE_NAME, config, logger });
  const cacheMetrics = createCacheMetrics(service.metrics);
  const head = new HeadTracker({
    chain,
    ttlMs: config.BLOCK_TIP_TTL_MS,
    finalityDepth: config.BLOCK_FINALITY_DEPTH,
    logger,
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
  const tip = new TipCache(config.BLOCK_TIP_TTL_MS, 1_000, cacheMetrics);
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

  const rpc = new RpcServer({
    info: {
      title: 'Block API',
      version: API_VERSION,
      description:
        'Block information of the chain over JSON-RPC 2.0 (POST /block): getBlock, getBlockNumber, getTransaction, getTransactionReceipt, getTransactionStats.',
    },
    methods: [
      getBlockMethod(blocks),
      getBlockNumberMethod(blocks),
      getTransactionMethod(transactions),
      getTransactionReceiptMethod(transactions),
      getTransactionStatsMethod(stats, config.STATS_MAX_DAYS),
    ],
    logger,
    servers: [{ name: 'block', url: '/block' }],
  });
  service.app.use('/block', jsonRpcRouter(rpc, { bodyLimitBytes: config.BODY_LIMIT_BYTES }));

  service
    .addReadinessCheck(sqlReadinessCheck(sql))
    .addReadinessCheck(kvReadinessCheck(kv))
    .addReadinessCheck(chainReadinessCheck(chain));
  // Shutdown hooks run in reverse order: the indexer stops first, the stores close last.
  service
    .onShutdown(() => sql.close())
    .onShutdown(() => kv.close())
    .onShutdown(() => chain.close())
    .onShutdown(() => indexer?.stop());

  return {
    config,
    logger,
    service,
    rpc,
    chain,
    kv,
    sql,
    blocks,
    transactions,
    stats,
    indexStore,
    indexer,
    async listen() {
      const running = await service.listen();
      if (deps.autoStartIndexer ?? true) indexer?.start();
      return running;
    },
    close: () => service.close(),
  };
}
