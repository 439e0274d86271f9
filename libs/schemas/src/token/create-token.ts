import { z } from 'zod';
import {
  addressParam,
  addressResult,
  amountParam,
  hashKeyParam,
  signatureParam,
  tempKeyParam,
} from './primitives.js';

const noPipe = (value: string) => !value.includes('|');

/**
 * createToken params; signing string `from|name|symbol|decimals|initialSupply|tempKey|hashKey`
 * (decimals as sent: a JSON number contributes its shortest decimal form, e.g. 18).
 */
export const createTokenParamsSchema = z
  .object({
    from: addressParam.meta({
      description: 'wallet address that deploys and receives the initial supply',
    }),
    name: z
      .string()
      .min(1, 'must not be empty')
      .max(64, 'must be at most 64 characters')
      .refine(noPipe, 'must not contain "|"')
      .meta({ description: 'token name (1-64 characters, no "|")' }),
    symbol: z
      .string()
      .min(1, 'must not be empty')
      .max(16, 'must be at most 16 characters')
      .refine(noPipe, 'must not contain "|"')
      .meta({ description: 'token symbol (1-16 characters, no "|")' }),
    decimals: z
      .union(
        [
          z.number().int().min(0).max(255),
          // 0-255 as a pattern (not a refinement), so the JSON Schema is as strict as the service.
          z.string().regex(/^(0|[1-9][0-9]?|1[0-9]{2}|2[0-4][0-9]|25[0-5])$/),
        ],
        { error: 'must be an integer 0-255 (number or decimal string)' },
      )
      .meta({ description: 'decimals of the token, 0-255 (number or decimal string)' }),
    initialSupply: amountParam.meta({
      description: 'initial supply in base units (decimal string), minted to from',
    }),
    tempKey: tempKeyParam,
    hashKey: hashKeyParam,
    signature: signatureParam,
  })
  .meta({ title: 'CreateTokenParams' });
export type CreateTokenParams = z.infer<typeof createTokenParamsSchema>;

/** resultData of createToken: the address of the new contract. */
export const createTokenResultSchema = addressResult.meta({
  description: 'address of the deployed ERC-20 contract',
});
export type CreateTokenResult = z.infer<typeof createTokenResultSchema>;
