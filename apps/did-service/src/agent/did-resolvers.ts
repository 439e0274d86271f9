import { getDidJwkResolver } from '@veramo/did-provider-jwk';
import { getDidKeyResolver } from '@veramo/did-provider-key';
import { Resolver, type DIDCache, type ResolverRegistry } from 'did-resolver';
import { getResolver } from 'ethr-did-resolver';

/** One network of ethr-did-resolver: the configured chain under one name. */
export interface EthrResolverNetwork {
  name?: string | undefined;
  chainId?: string | number | bigint | undefined;
  /** An ethers Provider of the configured chain. */
  provider?: unknown;
  registry?: string | undefined;
}

/** did:key and did:jwk: their document is derived from the DID itself, no lookup. */
const SELF_CONTAINED_METHODS: ReadonlySet<string> = new Set(['key', 'jwk']);

/** Whether `did` (a DID or DID URL) is of a method whose document is derived from the DID itself. */
export function isSelfContainedDid(did: string): boolean {
  return SELF_CONTAINED_METHODS.has(did.split(':')[1] ?? '');
}

/**
 * THE resolver registry of did-service (the agent and the operator CLI): ethr-did-resolver on
 * the configured chain, plus Veramo's maintained did:key (Ed25519, secp256k1, P-256) and
 * did:jwk resolvers (@veramo/did-provider-key, @veramo/did-provider-jwk; no multicodec of our
 * own).
 */
export function didResolverRegistry(networks: EthrResolverNetwork[]): ResolverRegistry {
  return {
    // ethr-did-resolver's typings name ethers' CommonJS build; at run time it is the same ethers.
    ...getResolver({ networks } as never),
    ...getDidKeyResolver(),
    ...getDidJwkResolver(),
  };
}

/**
 * A did-resolver Resolver over didResolverRegistry. `cache` (resolution-cache.ts) is used for
 * did:ethr only: did:key / did:jwk documents cost no lookup, and anyone can make any number of
 * them, which would push the chain's documents out of the cache.
 */
export function createDidResolver(
  networks: EthrResolverNetwork[],
  cache?: DIDCache | undefined,
): Resolver {
  const registry = didResolverRegistry(networks);
  if (!cache) return new Resolver(registry);
  return new Resolver(registry, {
    cache: (parsed, resolve) =>
      SELF_CONTAINED_METHODS.has(parsed.method) ? resolve() : cache(parsed, resolve),
  });
}
