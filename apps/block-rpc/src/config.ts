import { z } from 'zod';
import { chainConfigShape } from '@itp/chain';
import { publicUrlSetting } from '@itp/jsonrpc';
import {
  baseConfigShape,
  configSchemas,
  loadConfig,
  trustProxySetting,
  type Env,
} from '@itp/service-kit';
import { storeConfigShape } from '@itp/stores';

const int = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  z.coerce.number().int().min(min).max(max);

/** The block API's configuration (environment variables), validated once at start. */
export const blockRpcConfigSchema = z.object({
  ...baseConfigShape,
  ...storeConfigShape,
  ...chainConfigShape,
  PORT: baseConfigShape.PORT.default(8084),
  /** Blocks at least this far below the head (or at/below the node's "finalized") are final. */
  BLOCK_FINALITY_DEPTH: int(0).default(64),
  /** Most entries in the in-process cache of final blocks, transactions and receipts. */
  BLOCK_CACHE_SIZE: int(1).default(2_000),
  /** Most bytes (of JSON) in that in-process cache. */
  BLOCK_CACHE_MAX_BYTES: int(1024).default(64 * 1024 * 1024),
  /** Time to live of final entries in the shared KV store (Redis); bounds its memory only. */
  BLOCK_CACHE_KV_TTL_MS: int(1000).default(7 * 24 * 3600 * 1000),
  /** How long answers that may still change (tags, recent blocks, the head) are reused; 0: never. */
  BLOCK_TIP_TTL_MS: int(0, 60_000).default(1_000),
  /** Run the indexer in this replica (replicas share it through a SQL lease). */
  BLOCK_INDEX_ENABLED: configSchemas.bool.default(true),
  BLOCK_INDEX_POLL_MS: int(10, 3_600_000).default(1_000),
  /** First block of an empty index; a non-empty one resumes from its highest block. */
  BLOCK_INDEX_START: int(0).default(0),
  /** Most blocks fetched and written per indexing step. */
  BLOCK_INDEX_BATCH: int(1, 1_000).default(100),
  /** How long the indexer lease lasts without renewal. */
  BLOCK_INDEX_LEASE_MS: int(1_000, 3_600_000).default(15_000),
  /** Longest range getTransactionStats accepts, in days. */
  STATS_MAX_DAYS: int(1, 3_660).default(366),
  /**
   * Calls (every method; each call of a batch) per client address per minute, as token-rpc's read
   * limit; over it the service error "429". 0 = no limit. Default: 600, none in development
   * (readLimitPerMinute). Counted per address the gateway reports: set TRUST_PROXY.
   */
  RATE_LIMIT_READ_PER_MINUTE: int(0).optional(),
  /** Peers believed in X-Forwarded-Host / -Proto / -For (the gateway): see service-kit. */
  TRUST_PROXY: trustProxySetting,
  /** Public base URL of the API (the gateway's): the OpenRPC document's servers[].url. */
  PUBLIC_URL: publicUrlSetting,
});

export type BlockRpcConfig = z.infer<typeof blockRpcConfigSchema>;

/** Production's default of RATE_LIMIT_READ_PER_MINUTE (token-rpc's read limit). */
export const DEFAULT_READ_LIMIT_PER_MINUTE = 600;

/** Calls per client address and minute: the setting, else 600 (none in development); 0 = none. */
export function readLimitPerMinute(
  config: Pick<BlockRpcConfig, 'APP_ENV' | 'RATE_LIMIT_READ_PER_MINUTE'>,
): number {
  if (config.RATE_LIMIT_READ_PER_MINUTE !== undefined) return config.RATE_LIMIT_READ_PER_MINUTE;
  return config.APP_ENV === 'development' ? 0 : DEFAULT_READ_LIMIT_PER_MINUTE;
}

export function loadBlockRpcConfig(env: Env): BlockRpcConfig {
  return loadConfig(blockRpcConfigSchema, env);
}
