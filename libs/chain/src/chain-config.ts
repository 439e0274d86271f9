import { z } from 'zod';
import type { Logger } from '@itp/service-kit';
import type { ChainClient, ChainClientOptions } from './chain-client.js';
import { createChainClient } from './chain-client.js';
import { ChainIdMismatchError } from './chain-errors.js';
import {
  DEFAULT_CIRCUIT_COOLDOWN_MS,
  DEFAULT_CIRCUIT_FAILURE_THRESHOLD,
  type CircuitState,
} from './circuit-breaker.js';

/** Chain settings of a service config: spread into the app's schema beside baseConfigShape. */
export const chainConfigShape = {
  ETH_RPC_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }),
  /** When set, the service refuses to start unless the node serves this chain. */
  CHAIN_ID: z.coerce.number().int().positive().optional(),
  DID_REGISTRY_ADDRESS: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 20-byte hex address')
    .optional(),
  ETH_RPC_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  /**
   * The node's circuit breaker: consecutive timeouts / connection failures that open it (then
   * calls answer 503 at once, without calling the node); 0 = no breaker.
   */
  ETH_RPC_BREAKER_FAILURES: z.coerce
    .number()
    .int()
    .min(0)
    .default(DEFAULT_CIRCUIT_FAILURE_THRESHOLD),
  /** How long the open breaker refuses calls before one probe call may go to the node. */
  ETH_RPC_BREAKER_COOLDOWN_MS: z.coerce
    .number()
    .int()
    .min(100)
    .max(300_000)
    .default(DEFAULT_CIRCUIT_COOLDOWN_MS),
} as const;

export interface ChainConfig {
  ETH_RPC_URL: string;
  CHAIN_ID?: number | undefined;
  DID_REGISTRY_ADDRESS?: string | undefined;
  ETH_RPC_TIMEOUT_MS: number;
  /** Default 3; 0 = no breaker. */
  ETH_RPC_BREAKER_FAILURES?: number | undefined;
  /** Default 5 000 ms. */
  ETH_RPC_BREAKER_COOLDOWN_MS?: number | undefined;
}

/** The log lines of a chain client's breaker: open (warn), half-open (debug), closed (info). */
export function chainCircuitLog(
  logger: Logger,
): (state: CircuitState, detail: { failures: number }) => void {
  return (state, { failures }) => {
    if (state === 'open') {
      logger.warn(
        { failures },
        'chain node circuit open: chain calls answer 503 at once until a probe call succeeds',
      );
    } else if (state === 'closed') {
      logger.info('chain node circuit closed: the node answers again');
    } else {
      logger.debug('chain node circuit half-open: one probe call goes to the node');
    }
  };
}

/** The client options a chain config gives (URL, timeout, circuit breaker). */
export function chainClientOptions(
  config: ChainConfig,
  onCircuitChange?: (state: CircuitState, detail: { failures: number }) => void,
): ChainClientOptions {
  const failureThreshold = config.ETH_RPC_BREAKER_FAILURES ?? DEFAULT_CIRCUIT_FAILURE_THRESHOLD;
  return {
    rpcUrl: config.ETH_RPC_URL,
    timeoutMs: config.ETH_RPC_TIMEOUT_MS,
    breaker:
      failureThreshold === 0
        ? false
        : {
            failureThreshold,
            cooldownMs: config.ETH_RPC_BREAKER_COOLDOWN_MS ?? DEFAULT_CIRCUIT_COOLDOWN_MS,
            ...(onCircuitChange ? { onStateChange: onCircuitChange } : {}),
          },
  };
}

/** Resolves with the node's chain id; rejects with ChainIdMismatchError when `expected` differs. */
export async function assertChainId(
  client: ChainClient,
  expected: number | undefined,
): Promise<number> {
  const actual = await client.chainId();
  if (expected !== undefined && actual !== expected) {
    throw new ChainIdMismatchError(expected, actual);
  }
  return actual;
}

/**
 * The start-up step of a service: a client for ETH_RPC_URL (with its timeout and circuit
 * breaker), checked against CHAIN_ID when that is set (then an unreachable node or another chain
 * rejects, and the service should not start). `onCircuitChange` hears the breaker open and close.
 */
export async function openChainClient(
  config: ChainConfig,
  onCircuitChange?: (state: CircuitState, detail: { failures: number }) => void,
): Promise<ChainClient> {
  const client = createChainClient(chainClientOptions(config, onCircuitChange));
  if (config.CHAIN_ID !== undefined) {
    try {
      await assertChainId(client, config.CHAIN_ID);
    } catch (err) {
      await client.close();
      throw err;
    }
  }
  return client;
}
