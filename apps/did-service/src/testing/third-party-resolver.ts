import { Resolver } from 'did-resolver';
import { getResolver } from 'ethr-did-resolver';
import { testChainUrl } from '@itp/testing';

/**
 * Test helper: a third-party verifier's resolver — a fresh ethr-did-resolver + did-resolver
 * Resolver configured only with what the README tells integrators (network name, chain id, RPC
 * URL of the test chain, registry). Nothing of did-service's own resolver is shared.
 */
export function thirdPartyResolver(registry: string, name = 'mainnet'): Resolver {
  return new Resolver(
    getResolver({ networks: [{ name, chainId: 31337, rpcUrl: testChainUrl(), registry }] }),
  );
}
