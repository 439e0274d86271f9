import { z } from 'zod';
import {
  addressParam,
  hash32Param,
  hashKeyParam,
  signatureResult,
  tempKeyParam,
} from './primitives.js';

/** signData params: `{ from, hash, tempKey, hashKey }`. */
export const signDataParamsSchema = z
  .object({
    from: addressParam.meta({ description: 'wallet address whose key signs' }),
    hash: hash32Param.meta({
      description:
        'hex SHA-256 of the signing string of the transaction to authorise (64 hex digits, optional 0x)',
    }),
    tempKey: tempKeyParam,
    hashKey: hashKeyParam,
  })
  .meta({ title: 'SignDataParams' });
export type SignDataParams = z.infer<typeof signDataParamsSchema>;

export const signDataResultSchema = signatureResult;
export type SignDataResult = z.infer<typeof signDataResultSchema>;
