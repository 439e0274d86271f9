import { z } from 'zod';
import { addressParam, keyTypeParam } from './primitives.js';

/** net_getTempKey params: `{ address, keyType }`. */
export const getTempKeyParamsSchema = z
  .object({ address: addressParam, keyType: keyTypeParam })
  .meta({ title: 'GetTempKeyParams' });
export type GetTempKeyParams = z.infer<typeof getTempKeyParamsSchema>;

export const getTempKeyResultSchema = z
  .object({
    tempKey: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .meta({
        description: '256 random bits (64 hex digits); single use, expires (default 5 minutes)',
      }),
  })
  .meta({ title: 'GetTempKeyResult' });
export type GetTempKeyResult = z.infer<typeof getTempKeyResultSchema>;
