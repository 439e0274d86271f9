import type { IIdentifier } from '@veramo/core';
import type { DidRecord } from '@itp/schemas';

/**
 * The alias a holder DID is stored under: scoped to its wallet address (`<address>/<alias>`,
 * lower-case address), so that aliases are unique per wallet, not global, and no caller can take
 * the alias another wallet uses. Service DIDs keep their configured aliases as they are.
 */
export function scopedAlias(address: string, alias: string): string {
  return `${address.toLowerCase()}/${alias}`;
}

/** The alias as the caller gave it (records stored before scoping have it plain). */
export function plainAlias(identifier: Pick<IIdentifier, 'alias' | 'controllerKeyId'>): string {
  const alias = identifier.alias ?? '';
  const scope = `${(identifier.controllerKeyId ?? '').toLowerCase()}/`;
  return identifier.controllerKeyId && alias.startsWith(scope) ? alias.slice(scope.length) : alias;
}

/**
 * The DID record of docs/api.md §3.1 for a stored identifier. Private material is never part of
 * it: `privateKeyHex` and `meta.secretKey` are present and empty (docs/api.md §3).
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
    alias: plainAlias(identifier),
    services: [],
    did: identifier.did,
  };
}
