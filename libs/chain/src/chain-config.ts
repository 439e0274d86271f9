import { z } from 'zod';
import type { ChainClient } from './chain-client.js';
import { createChainClient } from './chain-client.js';
import { ChainIdMismatchError } from './chain-errors.js';

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
} as const;

export interface ChainConfig {
  ETH_RPC_URL: string;
  CHAIN_ID?: number | undefined;
  DID_REGISTRY_ADDRESS?: string | undefined;
  ETH_RPC_TIMEOUT_MS: number;
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
 * The start-up step of a service: a client for ETH_RPC_URL, checked against CHAIN_ID when that is
 * set (then an unreachable node or another chain rejects, and the service should not start).
 */
export async function openChainClient(config: ChainConfig): Promise<ChainClient> {
  const client = createChainClient({
    rpcUrl: config.ETH_RPC_URL,
    timeoutMs: config.ETH_RPC_TIMEOUT_MS,
  });
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
