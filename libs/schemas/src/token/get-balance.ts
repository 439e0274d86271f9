import { z } from 'zod';
import { addressParam, addressResult, amountResult } from './primitives.js';

/** getBalance params: `{ address }` (any address, not only wallet addresses). */
export const getBalanceParamsSchema = z
  .object({ address: addressParam })
  .meta({ title: 'GetBalanceParams' });
export type GetBalanceParams = z.infer<typeof getBalanceParamsSchema>;

export const getBalanceResultSchema = z
  .object({
    address: addressResult,
    balance: amountResult.meta({
      description: 'balance in wei at the latest block (decimal string)',
    }),
  })
  .meta({ title: 'GetBalanceResult' });
export type GetBalanceResult = z.infer<typeof getBalanceResultSchema>;
