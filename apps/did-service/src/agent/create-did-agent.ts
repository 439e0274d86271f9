import {
  createAgent,
  type IAgentPlugin,
  type ICredentialPlugin,
  type IDIDManager,
  type IKeyManager,
  type IResolver,
  type TAgent,
} from '@veramo/core';
import { CredentialProviderJWT } from '@veramo/credential-jwt';
import { CredentialPlugin } from '@veramo/credential-w3c';
import { DIDStore, KeyStore, PrivateKeyStore } from '@veramo/data-store';
import { cachedReads } from './cached-reads.js';
import { outageAwareStore } from './outage-aware-store.js';
import { decideDebugColoursOnce } from './quiet-debug.js';
import { PooledSigningKms } from './pooled-signing-kms.js';
import type { Es256kSigner } from './signing-pool.js';
import { DIDManager } from '@veramo/did-manager';
import { EthrDIDProvider } from '@veramo/did-provider-ethr';
import { DIDResolverPlugin } from '@veramo/did-resolver';
import { KeyManager, type AbstractSecretBox } from '@veramo/key-manager';
import { KeyManagementSystem } from '@veramo/kms-local';
import type { DIDCache } from 'did-resolver';
import type { Provider } from 'ethers';
import type { DataSource } from 'typeorm';
import type { WalletPort } from '../wallet/wallet-port.js';
import { WALLET_KMS, WalletKeyManagementSystem } from './wallet-kms.js';
import { createDidResolver } from './did-resolvers.js';

type EthrNetworkConfiguration = NonNullable<
  ConstructorParameters<typeof EthrDIDProvider>[0]['networks']
>[number];

/** The agent's methods did-service uses. */
export type DidAgent = TAgent<IDIDManager & IKeyManager & IResolver & ICredentialPlugin>;

/**
 * How long this replica keeps a DID's identifier, a key's metadata and a service private key
 * once read (they never change once written; see cached-reads.ts), and how many of each.
 */
const RECORD_CACHE = { ttlMs: 10 * 60_000, max: 10_000 };

/** Name of the key store of the service's own (issuer / verifier) keys: kms-local + KmsSecretBox. */
export const LOCAL_KMS = 'local';

/**
 * `did:ethr:<address>` (no network segment) resolves only through a network named "mainnet":
 * this service gives that name to the configured chain (see stack-facts, README, ADR 0015).
 */
export const ETHR_NETWORK_NAME = 'mainnet';

/**
 * The ethr-did-resolver / EthrDIDProvider networks of the configured chain: always `mainnet`
 * (the bare `did:ethr:<address>` form) and, with DID_NETWORK, that name too. ethr-did-resolver
 * also keys every network by its chain id in hex, so `did:ethr:0x7a69:<address>` resolves in
 * both modes.
 */
export function ethrNetworkNames(didNetwork: string | undefined): string[] {
  return didNetwork && didNetwork !== ETHR_NETWORK_NAME
    ? [ETHR_NETWORK_NAME, didNetwork]
    : [ETHR_NETWORK_NAME];
}

export interface DidChain {
  provider: Provider;
  chainId: number;
  /** ERC-1056 registry address. */
  registry: string;
}

export interface DidAgentOptions {
  dataSource: DataSource;
  /**
   * Encrypts the local KMS's private keys at rest: a KmsSecretBox over DID_KMS_SECRET_KEY and the
   * previous keys (kms-keyring.ts).
   */
  kmsSecretBox: AbstractSecretBox;
  wallet: WalletPort;
  chain: DidChain;
  /** DID_NETWORK: the network segment of created DIDs (undefined: `did:ethr:<address>`). */
  didNetwork?: string | undefined;
  resolutionCache: DIDCache;
  /** Makes the service keys' ES256K signatures off the event loop; none: kms-local signs. */
  signer?: Es256kSigner | undefined;
}

/**
 * THE one place the Veramo agent is wired: key manager (kms-local for the service's keys,
 * the wallet KMS for holder keys), DID manager with did:ethr, resolver (did-resolvers.ts:
 * ethr-did-resolver on the configured chain with a TTL cache, plus did:key and did:jwk for the
 * holders of standard wallets) and W3C credentials with JWT proofs, all on the data store.
 */
export function createDidAgent(options: DidAgentOptions): DidAgent {
  const { dataSource, chain } = options;
  decideDebugColoursOnce();
  const privateKeys = cachedReads(
    outageAwareStore(new PrivateKeyStore(dataSource, options.kmsSecretBox)),
    { read: 'getKey', writes: ['importKey', 'deleteKey'], ...RECORD_CACHE },
  );
  const networks: EthrNetworkConfiguration[] = ethrNetworkNames(options.didNetwork).map((name) => ({
    name,
    chainId: chain.chainId,
    provider: chain.provider,
    registry: chain.registry,
  }));
  const keyManager = new KeyManager({
    store: cachedReads(outageAwareStore(new KeyStore(dataSource)), {
      read: 'getKey',
      writes: ['importKey', 'deleteKey'],
      ...RECORD_CACHE,
    }),
    kms: {
      [LOCAL_KMS]: options.signer
        ? new PooledSigningKms(privateKeys, options.signer)
        : new KeyManagementSystem(privateKeys),
      [WALLET_KMS]: new WalletKeyManagementSystem(options.wallet),
    },
  });
  const didManager = new DIDManager({
    store: cachedReads(outageAwareStore(new DIDStore(dataSource)), {
      read: 'getDID',
      writes: ['importDID', 'deleteDID'],
      ...RECORD_CACHE,
    }),
    defaultProvider: 'did:ethr',
    providers: {
      'did:ethr': new EthrDIDProvider({ defaultKms: LOCAL_KMS, networks }),
    },
  });
  const agent = createAgent<IDIDManager & IKeyManager & IResolver & ICredentialPlugin>({
    plugins: [
      keyManager,
      didManager,
      new DIDResolverPlugin({ resolver: createDidResolver(networks, options.resolutionCache) }),
      new CredentialPlugin([new CredentialProviderJWT()]),
    ],
  });
  callDirectly(agent, keyManager, ['keyManagerSign']);
  callDirectly(agent, didManager, ['didManagerGet']);
  return agent;
}

/**
 * The agent's `methods` of `plugin` called without the agent's `execute` around them: the
 * plugin's own method with the context `execute` gives it (`{ agent }`), so the same key and
 * identifier look-ups (the stores' caches), the same KMS choice and custody (a key is used only
 * through the KMS named in its record), the same result and errors. What is left out is
 * `execute`'s bookkeeping, paid on every call even with DEBUG off: two new `debug` loggers per
 * call and a JSON.stringify of the result for them (ADR 0035's amendment: create-vc makes two of
 * these calls per VC — the holder's identifier and the issuer key's signature). Schema
 * validation is off in this agent, so nothing else differs; the only difference is that DEBUG
 * no longer prints `veramo:agent:<method>` lines for these methods.
 */
function callDirectly(agent: object, plugin: IAgentPlugin, methods: readonly string[]): void {
  const context = { agent };
  for (const method of methods) {
    const call = plugin.methods?.[method];
    if (!call) throw new Error(`the agent's plugin has no method ${method}`);
    Object.assign(agent, { [method]: async (args?: unknown) => call(args ?? {}, context) });
  }
}
