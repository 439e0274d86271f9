/**
 * The did:ethr resolver a third party builds for a stack: @itp/wallet's `ethrDidResolver`
 * (ethr-did-resolver) on the stack's chain and DID registry, the dev chain's id.
 */
import { DEV_CHAIN } from '@itp/dev-chain';
import { ethrDidResolver } from '@itp/wallet';
import type { Resolvable } from 'did-resolver';

export function thirdPartyResolver(chain: {
  chainUrl: string;
  didRegistryAddress: string;
}): Resolvable {
  return ethrDidResolver({
    rpcUrl: chain.chainUrl,
    registry: chain.didRegistryAddress,
    chainId: DEV_CHAIN.chainId,
  });
}
