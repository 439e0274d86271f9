import {
  createAgent,
  type ICredentialPlugin,
  type IDIDManager,
  type IKeyManager,
  type IResolver,
  type TAgent,
} from '@veramo/core';
import { CredentialProviderJWT } from '@veramo/credential-jwt';
import { CredentialPlugin } from '@veramo/credential-w3c';
import { DIDStore, KeyStore, PrivateKeyStore } from '@veramo/data-store';
import { DIDManager } from '@veramo/did-manager';
import { EthrDIDProvider } from '@veramo/did-provider-ethr';
import { DIDResolverPlugin } from '@veramo/did-resolver';
import { KeyManager } from '@veramo/key-manager';
import { KeyManagementSystem, SecretBox } from '@veramo/kms-local';
import { Resolver, type DIDCache } from 'did-resolver';
import type { Provider } from 'ethers';
import { getResolver } from 'ethr-did-resolver';
import type { DataSource } from 'typeorm';
import type { WalletPort } from '../wallet/wallet-port.js';
import { WALLET_KMS, WalletKeyManagementSystem } from './wallet-kms.js';

type EthrNetworkConfiguration = NonNullable<
  ConstructorParameters<typeof EthrDIDProvider>[0]['networks']
>[number];

/** The agent's methods did-service uses. */
export type DidAgent = TAgent<IDIDManager & IKeyManager & IResolver & ICredentialPlugin>;

/** Name of the key store of the service's own (issuer / verifier) keys: kms-local + SecretBox. */
export const LOCAL_KMS = 'local';

/**
 * `did:ethr:<address>` (no network segment) resolves only through a network named "mainnet":
 * this service gives that name to the configured chain (see stack-facts, README).
 */
export const ETHR_NETWORK_NAME = 'mainnet';

export interface DidChain {
  provider: Provider;
  chainId: number;
  /** ERC-1056 registry address. */
  registry: string;
}

export interface DidAgentOptions {
  dataSource: DataSource;
  /** 64 hex digits (DID_KMS_SECRET_KEY): encrypts the local KMS's private keys at rest. */
  kmsSecretKey: string;
  wallet: WalletPort;
  chain: DidChain;
  resolutionCache: DIDCache;
}

/**
 * THE one place the Veramo agent is wired: key manager (kms-local for the service's keys,
 * the wallet KMS for holder keys), DID manager with did:ethr, resolver (ethr-did-resolver on the
 * configured chain, with a TTL cache) and W3C credentials with JWT proofs, all on the data store.
 */
export function createDidAgent(options: DidAgentOptions): DidAgent {
  const { dataSource, chain } = options;
  const network: EthrNetworkConfiguration = {
    name: ETHR_NETWORK_NAME,
    chainId: chain.chainId,
    provider: chain.provider,
    registry: chain.registry,
  };
  // ethr-did-resolver's typings name ethers' CommonJS build; at run time it is the same ethers.
  const resolverNetwork = network as unknown as NonNullable<Parameters<typeof getResolver>[0]>;
  return createAgent<IDIDManager & IKeyManager & IResolver & ICredentialPlugin>({
    plugins: [
      new KeyManager({
        store: new KeyStore(dataSource),
        kms: {
          [LOCAL_KMS]: new KeyManagementSystem(
            new PrivateKeyStore(dataSource, new SecretBox(options.kmsSecretKey)),
          ),
          [WALLET_KMS]: new WalletKeyManagementSystem(options.wallet),
        },
      }),
      new DIDManager({
        store: new DIDStore(dataSource),
        defaultProvider: 'did:ethr',
        providers: {
          'did:ethr': new EthrDIDProvider({ defaultKms: LOCAL_KMS, networks: [network] }),
        },
      }),
      new DIDResolverPlugin({
        resolver: new Resolver(getResolver({ networks: [resolverNetwork] } as never), {
          cache: options.resolutionCache,
        }),
      }),
      new CredentialPlugin([new CredentialProviderJWT()]),
    ],
  });
}
