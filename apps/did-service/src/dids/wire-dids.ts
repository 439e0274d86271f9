import type { Logger } from '@itp/service-kit';
import type { KvStore } from '@itp/stores';
import type { DidAgent } from '../agent/create-did-agent.js';
import type { DidConfig } from '../config.js';
import type { HolderBindings } from '../db/holder-bindings.js';
import type { WalletPort } from '../wallet/wallet-port.js';
import type { CreateDidDeps } from './create-did.js';
import { ensureServiceDids, type ServiceDids } from './service-dids.js';

export interface DidsWiring {
  /** The issuer and verifier DIDs (DID_ISSUER_ALIASES, DID_VERIFIER_ALIASES). */
  serviceDids: ServiceDids;
  /** create-did: holder DIDs of wallet addresses (token-rpc's register-did). */
  createDid: CreateDidDeps;
}

/** The service's own DIDs (created on first start) and create-did's holder DIDs. */
export async function wireDids(
  config: DidConfig,
  logger: Logger,
  parts: { agent: DidAgent; wallet: WalletPort; bindings: HolderBindings; kv: KvStore },
): Promise<DidsWiring> {
  const serviceDids = await ensureServiceDids(parts.agent, {
    issuerAliases: config.DID_ISSUER_ALIASES,
    verifierAliases: config.DID_VERIFIER_ALIASES,
    didNetwork: config.DID_NETWORK,
    logger,
  });
  return { serviceDids, createDid: { ...parts, didNetwork: config.DID_NETWORK, logger } };
}
