/** The did:ethr resolver a third party builds for a stack: nothing of this platform's code. */
import { DEV_CHAIN } from '@itp/dev-chain';
import { Resolver, type Resolvable } from 'did-resolver';
import { getResolver } from 'ethr-did-resolver';

/**
 * ethr-did-resolver on the stack's chain and DID registry. A did:ethr DID without a network
 * segment names the network "mainnet"; here that is the stack's chain (the service names its
 * chain so as well). Without `chainId`, ethers 6 fails with "network changed: 1 => 31337".
 */
export function thirdPartyResolver(chain: {
  chainUrl: string;
  didRegistryAddress: string;
}): Resolvable {
  return new Resolver(
    getResolver({
      networks: [
        {
          name: 'mainnet',
          chainId: DEV_CHAIN.chainId,
          rpcUrl: chain.chainUrl,
          registry: chain.didRegistryAddress,
        },
      ],
    }),
  );
}
