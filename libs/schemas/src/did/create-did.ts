import { z } from 'zod';
import { didAddress, didAlias, didEthrString } from './primitives.js';

/** POST /v2/did/create-did */
export const createDidRequestSchema = z
  .object({
    alias: didAlias,
    address: didAddress.meta({
      description: 'wallet address made by the token API (createAddress)',
    }),
    secretKey: z.string().min(1).max(256).meta({
      description: 'the secretKey createAddress / importAddress returned for the address',
    }),
  })
  .meta({ title: 'CreateDidRequest' });
export type CreateDidRequest = z.infer<typeof createDidRequestSchema>;

/** The signing algorithms a DID key supports (docs/api.md §3.1). */
export const DID_KEY_ALGORITHMS = [
  'ES256K',
  'ES256K-R',
  'eth_signTransaction',
  'eth_signTypedData',
  'eth_signMessage',
] as const;

export const didKeySchema = z
  .object({
    kid: z.string(),
    kms: z.string().meta({ description: 'name of the key store that holds the key' }),
    type: z.literal('Secp256k1'),
    publicKeyHex: z
      .string()
      .regex(/^04[0-9a-f]{128}$/)
      .meta({ description: 'uncompressed secp256k1 public key, hex without 0x' }),
    privateKeyHex: z
      .literal('')
      .meta({ description: 'always empty: private keys are never returned' }),
    meta: z.object({
      algorithms: z.array(z.string()),
      secretKey: z.literal('').meta({ description: 'always empty: secrets are never returned' }),
    }),
  })
  .meta({ title: 'DidKey' });
export type DidKey = z.infer<typeof didKeySchema>;

/** The DID record (docs/api.md §3.1), answer of create-did. */
export const didRecordSchema = z
  .object({
    did: didEthrString,
    controllerKeyId: z
      .string()
      .meta({ description: 'the address given at creation (EIP-55 form)' }),
    keys: z.array(didKeySchema),
    services: z.array(z.unknown()),
    provider: z.literal('did:ethr'),
    alias: didAlias,
  })
  .meta({ title: 'DidRecord' });
export type DidRecord = z.infer<typeof didRecordSchema>;
