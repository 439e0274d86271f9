import { z } from 'zod';
import { addressResult } from './primitives.js';

/** createAddress params: none (`{}`, `[]` or omitted). */
export const createAddressParamsSchema = z.object({}).meta({ title: 'CreateAddressParams' });
export type CreateAddressParams = z.infer<typeof createAddressParamsSchema>;

export const createAddressResultSchema = z
  .object({
    address: addressResult,
    mnemonic: z.string().meta({
      description: "12-word BIP-39 mnemonic; the key is derived on m/44'/60'/0'/0/0",
    }),
    secretKey: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .meta({ description: 'the secret for hashKey (256 random bits, 64 hex digits); shown once' }),
  })
  .meta({ title: 'CreateAddressResult' });
export type CreateAddressResult = z.infer<typeof createAddressResultSchema>;
