import type { ChainClient } from '@itp/chain';
import { createLogger, type Logger, type RunningService } from '@itp/service-kit';
import { SERVICE_NAME, buildBlockRpc, type BlockRpcApp } from '../app.js';
import { loadBlockRpcConfig } from '../config.js';

export interface HarnessOptions {
  chainUrl: string;
  databaseUrl: string;
  redisUrl: string;
  keyPrefix: string;
  /** More environment variables (BLOCK_* settings). */
  env?: Record<string, string>;
  chain?: ChainClient;
  /** Default false: tests step the indexer themselves (app.indexer.catchUp()). */
  autoStartIndexer?: boolean;
  /** Default: a logger at LOG_LEVEL (silent). See testing/log-capture.ts. */
  logger?: Logger;
  /** Default true: the node:http fast path of POST /block (BlockRpcOverrides.fastPath). */
  fastPath?: boolean;
  /** The clock of the head and tip caches (BlockRpcOverrides.now); default the real one. */
  now?: () => number;
}

export interface JsonRpcAnswer {
  jsonrpc: '2.0';
  id: unknown;
  result?: { resultCode: string; resultMessage: string; resultData: unknown };
  error?: { code: number; message: string; msg: string; data?: unknown };
}

/** The block API built by app.ts and listening on a free port, plus a small client. */
export interface Harness {
  app: BlockRpcApp;
  url: string;
  /** The separate metrics listener (`${metricsUrl}/metrics`). */
  metricsUrl: string;
  /** POST /block with a raw body (string) or JSON value. */
  post(body: unknown, headers?: Record<string, string>): Promise<Response>;
  /** One call with id 1; resolves with the whole answer. */
  call(method: string, params?: unknown): Promise<JsonRpcAnswer>;
  /** One call that must succeed (resultCode "200"); resolves with resultData. */
  data<T = unknown>(method: string, params?: unknown): Promise<T>;
  close(): Promise<void>;
}

export async function startHarness(options: HarnessOptions): Promise<Harness> {
  const config = loadBlockRpcConfig({
    APP_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'silent',
    ETH_RPC_URL: options.chainUrl,
    DATABASE_URL: options.databaseUrl,
    REDIS_URL: options.redisUrl,
    REDIS_KEY_PREFIX: options.keyPrefix,
    BLOCK_INDEX_POLL_MS: '50',
    ...options.env,
  });
  const logger = options.logger ?? createLogger({ name: SERVICE_NAME, level: config.LOG_LEVEL });
  const app = await buildBlockRpc(config, logger, {
    ...(options.chain ? { chain: options.chain } : {}),
    autoStartIndexer: options.autoStartIndexer ?? false,
    ...(options.fastPath === undefined ? {} : { fastPath: options.fastPath }),
    ...(options.now ? { now: options.now } : {}),
  });
  let running: RunningService;
  try {
    running = await app.listen();
  } catch (err) {
    await app.close();
    throw err;
  }
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${running.url}/block`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const call = async (method: string, params?: unknown): Promise<JsonRpcAnswer> => {
    const res = await post({
      jsonrpc: '2.0',
      id: 1,
      method,
      ...(params === undefined ? {} : { params }),
    });
    return (await res.json()) as JsonRpcAnswer;
  };
  return {
    app,
    url: running.url,
    metricsUrl: running.metricsUrl,
    post,
    call,
    async data<T>(method: string, params?: unknown): Promise<T> {
      const answer = await call(method, params);
      if (answer.result?.resultCode !== '200') {
        throw new Error(`${method} failed: ${JSON.stringify(answer)}`);
      }
      return answer.result.resultData as T;
    },
    close: () => app.close(),
  };
}
