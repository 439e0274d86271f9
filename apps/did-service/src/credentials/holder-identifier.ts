import type { IIdentifier } from '@veramo/core';
import { WALLET_KMS } from '../agent/wallet-kms.js';
import type { DidAgent } from '../agent/create-did-agent.js';
import { UnknownHolderError } from '../errors.js';
import { findIdentifier } from '../dids/find-identifier.js';

/** The stored holder DID (one create-did made: its key is in the wallet), else a 400. */
export async function holderIdentifier(agent: DidAgent, did: string): Promise<IIdentifier> {
  const identifier = await findIdentifier(agent, did);
  const key = identifier?.keys.find((k) => k.kid === identifier.controllerKeyId);
  if (!identifier || key?.kms !== WALLET_KMS) throw new UnknownHolderError(did);
  return identifier;
}
