import type { IIdentifier } from '@veramo/core';
import { computeAddress, getAddress } from 'ethers';
import { BadGatewayError, UnauthorizedError } from '@itp/errors';
import type { CreateDidRequest, DidRecord } from '@itp/schemas';
import type { Logger } from '@itp/service-kit';
import type { KvStore } from '@itp/stores';
import type { DidAgent } from '../agent/create-did-agent.js';
import { WALLET_KMS } from '../agent/wallet-kms.js';
import type { HolderBindings } from '../bindings/holder-bindings.js';
import type { WalletPort } from '../wallet/wallet-port.js';
import type { CreateDidAttempts } from './create-did-attempts.js';
import { didForAddress } from './did-ethr.js';
import { AliasTakenError, HolderOfAnotherUserError } from './did-errors.js';
import { toDidRecord } from './did-record.js';
import { findIdentifier, findIdentifierByAlias } from './find-identifier.js';
import { withKvLock } from './kv-lock.js';

export interface CreateDidDeps {
  agent: DidAgent;
  wallet: WalletPort;
  bindings: HolderBindings;
  attempts: CreateDidAttempts;
  kv: KvStore;
  logger?: Logger;
}

/**
 * create-did (interface §4.1 rule 6, contract §3): the wallet checks address + secretKey
 * (401 and nothing stored otherwise); the DID `did:ethr:<address>` is stored with the wallet's
 * public key only (kms "wallet": the private key stays in token-rpc). The same credentials again
 * answer the stored record (contract §3: idempotent), under the alias it was created with; an
 * alias held by another DID is a 409. With `userId` (a bearer JWT was sent) the DID is bound to
 * that user at once.
 */
export async function createDid(
  deps: CreateDidDeps,
  request: CreateDidRequest,
  userId?: string,
): Promise<DidRecord> {
  await deps.attempts.assertAllowed(request.address);
  let key;
  try {
    key = await deps.wallet.verifySecret(request.address, request.secretKey);
  } catch (err) {
    if (err instanceof UnauthorizedError) await deps.attempts.recordFailure(request.address);
    throw err;
  }
  if (getAddress(key.address) !== getAddress(request.address)) {
    throw new BadGatewayError('token-rpc verified another address than the one asked for');
  }
  if (computeAddress(`0x${key.publicKeyHex}`) !== getAddress(key.address)) {
    throw new BadGatewayError("token-rpc's public key does not belong to the address");
  }
  const address = getAddress(key.address);
  const did = didForAddress(address);
  const identifier = await withKvLock(
    deps.kv,
    `create-did:lock:${address.toLowerCase()}`,
    { ttlMs: 30_000, waitMs: 10_000 },
    async () =>
      (await existingDid(deps, did, request.alias)) ??
      (await importDid(deps, did, address, key.publicKeyHex, request.alias)),
  );
  if (userId !== undefined) {
    const bound = await deps.bindings.bind(did, userId);
    if (bound !== userId) throw new HolderOfAnotherUserError();
  }
  return toDidRecord(identifier);
}

async function existingDid(
  deps: CreateDidDeps,
  did: string,
  alias: string,
): Promise<IIdentifier | undefined> {
  const existing = await findIdentifier(deps.agent, did);
  if (existing && existing.alias !== alias) {
    // The stored record keeps its alias; asking for an alias of another DID is still a conflict.
    const holder = await findIdentifierByAlias(deps.agent, alias);
    if (holder && holder.did !== did) throw new AliasTakenError(alias);
  }
  return existing;
}

async function importDid(
  deps: CreateDidDeps,
  did: string,
  address: string,
  publicKeyHex: string,
  alias: string,
): Promise<IIdentifier> {
  if (await findIdentifierByAlias(deps.agent, alias)) throw new AliasTakenError(alias);
  try {
    await deps.agent.didManagerImport({
      did,
      alias,
      provider: 'did:ethr',
      controllerKeyId: address,
      keys: [{ kid: address, kms: WALLET_KMS, type: 'Secp256k1', publicKeyHex, privateKeyHex: '' }],
      services: [],
    });
  } catch (err) {
    // The unique (alias, provider) index: someone took the alias in the meantime.
    const holder = await findIdentifierByAlias(deps.agent, alias);
    if (holder && holder.did !== did) throw new AliasTakenError(alias);
    throw err;
  }
  deps.logger?.info({ did }, 'created holder DID');
  const stored = await findIdentifier(deps.agent, did);
  if (!stored) throw new Error(`${did} was not stored`);
  return stored;
}
