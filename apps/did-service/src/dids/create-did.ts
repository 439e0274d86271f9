import type { IIdentifier } from '@veramo/core';
import { computeAddress, getAddress } from 'ethers';
import { BadGatewayError } from '@itp/errors';
import type { CreateDidRequest, DidRecord } from '@itp/schemas';
import type { Logger } from '@itp/service-kit';
import type { KvStore } from '@itp/stores';
import type { DidAgent } from '../agent/create-did-agent.js';
import { WALLET_KMS } from '../agent/wallet-kms.js';
import type { HolderBindings } from '../db/holder-bindings.js';
import type { WalletPort } from '../wallet/wallet-port.js';
import { didForAddress } from './did-ethr.js';
import { scopedAlias, toDidRecord } from './did-record.js';
import { findIdentifier } from './find-identifier.js';
import { withKvLock } from './kv-lock.js';

export interface CreateDidDeps {
  agent: DidAgent;
  wallet: WalletPort;
  bindings: HolderBindings;
  kv: KvStore;
  /** DID_NETWORK: the network segment of new DIDs (undefined: `did:ethr:<address>`). */
  didNetwork?: string | undefined;
  logger?: Logger;
}

/**
 * create-did (docs/api.md §3): the wallet checks address + secretKey and
 * registers the address for its DID (401 and nothing stored otherwise); the DID
 * `did:ethr:<address>` (or `did:ethr:<DID_NETWORK>:<address>`, ADR 0015) is stored with the
 * wallet's public key only (kms "wallet": the private key stays in token-rpc). The same
 * credentials again answer the stored record (idempotent), under the alias it was created with,
 * and in the form it was created in (a DID made before DID_NETWORK was set stays
 * `did:ethr:<address>`). Aliases are scoped to the wallet address, so nobody can take another
 * wallet's alias. With `userId` (a bearer JWT of an active user was sent) the DID is
 * bound — or re-bound — to that user: the only request that binds (secretKey + bearer together).
 */
export async function createDid(
  deps: CreateDidDeps,
  request: CreateDidRequest,
  userId?: string,
): Promise<DidRecord> {
  const key = await deps.wallet.registerDid(request.address, request.secretKey);
  if (getAddress(key.address) !== getAddress(request.address)) {
    throw new BadGatewayError('token-rpc verified another address than the one asked for');
  }
  if (computeAddress(`0x${key.publicKeyHex}`) !== getAddress(key.address)) {
    throw new BadGatewayError("token-rpc's public key does not belong to the address");
  }
  const address = getAddress(key.address);
  const did = didForAddress(address, deps.didNetwork);
  const identifier = await withKvLock(
    deps.kv,
    `create-did:lock:${address.toLowerCase()}`,
    { ttlMs: 30_000, waitMs: 10_000 },
    async () =>
      (await findIdentifier(deps.agent, did)) ??
      (deps.didNetwork ? await findIdentifier(deps.agent, didForAddress(address)) : undefined) ??
      (await importDid(deps, did, address, key.publicKeyHex, request.alias)),
  );
  if (userId !== undefined) {
    await deps.bindings.bind(identifier.did, userId);
    deps.logger?.info({ did: identifier.did, userId }, 'holder DID bound to user');
  }
  return toDidRecord(identifier);
}

async function importDid(
  deps: CreateDidDeps,
  did: string,
  address: string,
  publicKeyHex: string,
  alias: string,
): Promise<IIdentifier> {
  await deps.agent.didManagerImport({
    did,
    alias: scopedAlias(address, alias),
    provider: 'did:ethr',
    controllerKeyId: address,
    keys: [{ kid: address, kms: WALLET_KMS, type: 'Secp256k1', publicKeyHex, privateKeyHex: '' }],
    services: [],
  });
  deps.logger?.info({ did }, 'created holder DID');
  const stored = await findIdentifier(deps.agent, did);
  if (!stored) throw new Error(`${did} was not stored`);
  return stored;
}
