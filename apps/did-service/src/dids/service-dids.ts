import type { IIdentifier } from '@veramo/core';
import { Wallet, verifyMessage } from 'ethers';
import type { ServiceDidEntry } from '@itp/schemas';
import type { Logger } from '@itp/service-kit';
import { LOCAL_KMS, type DidAgent } from '../agent/create-did-agent.js';
import { canonicalDid, didForAddress } from './did-ethr.js';
import { findIdentifierByAlias } from './find-identifier.js';

export type ServiceDidRole = 'issuer' | 'verifier';

/** The issuer and verifier DIDs this service provides (GET /did/issuers, /did/verifiers). */
export class ServiceDids {
  private readonly issuerDids: Set<string>;
  private readonly verifierDids: Set<string>;

  constructor(
    readonly issuers: readonly ServiceDidEntry[],
    readonly verifiers: readonly ServiceDidEntry[],
  ) {
    this.issuerDids = new Set(issuers.map((e) => canonicalDid(e.did)));
    this.verifierDids = new Set(verifiers.map((e) => canonicalDid(e.did)));
  }

  isIssuer(did: string): boolean {
    return this.issuerDids.has(canonicalDid(did));
  }

  isVerifier(did: string): boolean {
    return this.verifierDids.has(canonicalDid(did));
  }

  /** True for any DID of the service itself (never a holder). */
  isServiceDid(did: string): boolean {
    return this.isIssuer(did) || this.isVerifier(did);
  }
}

export class ServiceDidAliasTakenError extends Error {
  constructor(alias: string) {
    super(
      `DID alias "${alias}" is configured as a service DID but belongs to a holder DID; choose another alias`,
    );
    this.name = 'ServiceDidAliasTakenError';
  }
}

export class ServiceKeyUnusableError extends Error {
  constructor(alias: string) {
    super(
      `The stored key of service DID "${alias}" cannot sign: DID_KMS_SECRET_KEY is not the key it was stored with`,
    );
    this.name = 'ServiceKeyUnusableError';
  }
}

export interface EnsureServiceDidsOptions {
  issuerAliases: readonly string[];
  verifierAliases: readonly string[];
  /** DID_NETWORK: the network segment of DIDs created now (existing ones keep theirs). */
  didNetwork?: string | undefined;
  logger?: Logger;
}

/**
 * Start-up step: every configured issuer / verifier alias gets its DID, created on first start
 * (a new secp256k1 key in the local KMS, encrypted at rest) and reused on every later start.
 * Replicas starting together race on the data store's unique alias index: the loser drops the
 * key it made and takes the winner's DID, so each alias ends with exactly one DID. Each key is
 * then test-signed, so that a wrong DID_KMS_SECRET_KEY stops the start instead of every request.
 */
export async function ensureServiceDids(
  agent: DidAgent,
  options: EnsureServiceDidsOptions,
): Promise<ServiceDids> {
  const issuers: ServiceDidEntry[] = [];
  const verifiers: ServiceDidEntry[] = [];
  for (const alias of options.issuerAliases) {
    issuers.push(await ensureServiceDid(agent, alias, options));
  }
  for (const alias of options.verifierAliases) {
    verifiers.push(await ensureServiceDid(agent, alias, options));
  }
  return new ServiceDids(issuers, verifiers);
}

async function ensureServiceDid(
  agent: DidAgent,
  alias: string,
  options: EnsureServiceDidsOptions,
): Promise<ServiceDidEntry> {
  const identifier =
    (await findIdentifierByAlias(agent, alias)) ??
    (await createServiceDid(agent, alias, options.didNetwork, options.logger));
  const key = identifier.keys.find((k) => k.kid === identifier.controllerKeyId);
  if (!key || key.kms !== LOCAL_KMS) throw new ServiceDidAliasTakenError(alias);
  await assertKeyUsable(agent, key.kid, alias);
  return { alias, did: identifier.did };
}

async function createServiceDid(
  agent: DidAgent,
  alias: string,
  didNetwork: string | undefined,
  logger?: Logger,
): Promise<IIdentifier> {
  const wallet = Wallet.createRandom();
  const address = wallet.address;
  try {
    const created = await agent.didManagerImport({
      did: didForAddress(address, didNetwork),
      alias,
      provider: 'did:ethr',
      controllerKeyId: address,
      keys: [
        {
          kid: address,
          kms: LOCAL_KMS,
          type: 'Secp256k1',
          privateKeyHex: wallet.privateKey.slice(2),
          publicKeyHex: wallet.signingKey.publicKey.slice(2),
        },
      ],
      services: [],
    });
    logger?.info({ alias, did: created.did }, 'created service DID');
    return created;
  } catch (err) {
    // Another replica created this alias first: drop our key, use theirs.
    const winner = await findIdentifierByAlias(agent, alias);
    await agent.keyManagerDelete({ kid: address }).catch(() => undefined);
    if (!winner) throw err;
    return winner;
  }
}

async function assertKeyUsable(agent: DidAgent, kid: string, alias: string): Promise<void> {
  const probe = `did-service key check ${alias}`;
  try {
    const signature = await agent.keyManagerSign({
      keyRef: kid,
      data: probe,
      algorithm: 'eth_signMessage',
    });
    if (verifyMessage(probe, signature) === kid) return;
  } catch {
    // falls through: the key could not be opened
  }
  throw new ServiceKeyUnusableError(alias);
}
