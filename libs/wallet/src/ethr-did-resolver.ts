import type { DIDResolutionOptions, Resolvable, Resolver } from 'did-resolver';
import { walletPackages } from './wallet-packages.js';

/** Where did:ethr DIDs are resolved: an Ethereum JSON-RPC URL and its ERC-1056 registry. */
export interface DidChain {
  rpcUrl: string;
  registry: string;
  /** The chain's id (ethr-did-resolver needs it: ethers refuses a network that changes). */
  chainId: number;
}

/**
 * ethr-did-resolver on `chain` (built on the first resolution). A did:ethr DID without a network
 * segment names the network "mainnet"; here that is `chain` (the services name their chain so
 * as well). Without `chainId`, ethers 6 fails with "network changed: 1 => 31337".
 */
export function ethrDidResolver(chain: DidChain): Resolvable {
  let resolver: Promise<Resolver> | undefined;
  const build = async () => {
    const { didResolver, ethrDidResolver: ethr } = await walletPackages();
    const { rpcUrl, registry, chainId } = chain;
    return new didResolver.Resolver(
      ethr.getResolver({ networks: [{ name: 'mainnet', chainId, rpcUrl, registry }] }),
    );
  };
  return {
    resolve: async (didUrl: string, options?: DIDResolutionOptions) =>
      (await (resolver ??= build())).resolve(didUrl, options),
  };
}
