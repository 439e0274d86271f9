import type { DataSource } from 'typeorm';
import {
  chainCircuitLog,
  chainClientOptions,
  createChainClient,
  type ChainClient,
} from '@itp/chain';
import { createEthersProvider } from '@itp/chain/ethers';
import { DEV_CHAIN } from '@itp/dev-chain/constants';
import { ConfigError, type Logger, type ResourceScope } from '@itp/service-kit';
import { resolveDatabaseUrl } from '@itp/stores';
import type { DidConfig } from '../config.js';
import type { WalletPort } from '../wallet/wallet-port.js';
import { createDidAgent, type DidAgent } from './create-did-agent.js';
import { KmsSecretBox, type KmsKeys } from './kms-keyring.js';
import { assertKmsKeysReadable } from './kms-rotation.js';
import { createResolutionCache } from './resolution-cache.js';
import { createSigningPool } from './signing-pool.js';
import { openVeramoDataSource } from './veramo-data-source.js';

export interface AgentWiring {
  agent: DidAgent;
  chain: ChainClient;
  /** The Veramo store (its own readiness check). */
  dataSource: DataSource;
}

/**
 * The chain, the ethers provider, the Veramo store and the Veramo agent (create-did-agent.ts, the
 * one place it is wired) on the ERC-1056 `registry` (registryAddress), each opened through `scope`. Refuses to start when DID_NETWORK names
 * another chain or a stored service key does not open with the KMS keys.
 */
export async function wireAgent(
  config: DidConfig,
  logger: Logger,
  scope: ResourceScope,
  parts: { appName: string; wallet: WalletPort; kmsKeys: KmsKeys; registry: string },
): Promise<AgentWiring> {
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
    () => openVeramoDataSource(resolveDatabaseUrl(config, parts.appName), { logger }),
    (ds) => ds.destroy(),
  );
  // Every stored service key must open with DID_KMS_SECRET_KEY / DID_KMS_PREVIOUS_SECRET_KEYS.
  const kmsSecretBox = new KmsSecretBox(parts.kmsKeys);
  await assertKmsKeysReadable(dataSource, kmsSecretBox, logger);
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
    wallet: parts.wallet,
    chain: { provider, chainId, registry: parts.registry },
    didNetwork: config.DID_NETWORK,
    resolutionCache: createResolutionCache({
      ttlMs: config.DID_RESOLUTION_CACHE_TTL_MS,
      max: config.DID_RESOLUTION_CACHE_MAX,
    }),
  });
  return { agent, chain, dataSource };
}

/**
 * The ERC-1056 registry: DID_REGISTRY_ADDRESS; in development the dev chain's default. Checked
 * before anything is opened.
 */
export function registryAddress(
  config: Pick<DidConfig, 'APP_ENV' | 'DID_REGISTRY_ADDRESS'>,
): string {
  if (config.DID_REGISTRY_ADDRESS) return config.DID_REGISTRY_ADDRESS;
  if (config.APP_ENV === 'development') return DEV_CHAIN.didRegistryAddress;
  throw new ConfigError([
    `DID_REGISTRY_ADDRESS: required when APP_ENV=${config.APP_ENV} (the ERC-1056 registry on the chain)`,
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
