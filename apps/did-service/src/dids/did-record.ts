import type { IIdentifier } from '@veramo/core';
import type { DidRecord } from '@itp/schemas';

/**
 * The DID record of interface §2.3 for a stored identifier. Private material is never part of
 * it: `privateKeyHex` and `meta.secretKey` are present and empty (contract §3).
 */
export function toDidRecord(identifier: IIdentifier): DidRecord {
  return {
    controllerKeyId: identifier.controllerKeyId ?? '',
    provider: 'did:ethr',
    keys: identifier.keys.map((key) => ({
      kid: key.kid,
      kms: key.kms,
      type: 'Secp256k1' as const,
      publicKeyHex: key.publicKeyHex,
      privateKeyHex: '' as const,
      meta: {
        algorithms: Array.isArray(key.meta?.algorithms)
          ? [...(key.meta.algorithms as string[])]
          : [],
        secretKey: '' as const,
      },
    })),
    alias: identifier.alias ?? '',
    services: [],
    did: identifier.did,
  };
}
