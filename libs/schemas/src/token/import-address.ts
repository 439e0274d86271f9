import { z } from 'zod';
import { addressResult } from './primitives.js';

/** importAddress params: `{ mnemonic }`. */
export const importAddressParamsSchema = z
  .object({
    mnemonic: z
      .string()
      .min(1, 'must not be empty')
      .max(1000, 'is too long for a BIP-39 mnemonic')
      .meta({ description: 'BIP-39 mnemonic (English word list, 12 to 24 words)' }),
  })
  .meta({ title: 'ImportAddressParams' });
export type ImportAddressParams = z.infer<typeof importAddressParamsSchema>;

export const importAddressResultSchema = z
  .object({
    address: addressResult,
    secretKey: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .meta({ description: 'a NEW secretKey; the previous one of this address stops working' }),
  })
  .meta({ title: 'ImportAddressResult' });
export type ImportAddressResult = z.infer<typeof importAddressResultSchema>;
