import { z } from 'zod';
import {
  addressParam,
  amountParam,
  hashKeyParam,
  signatureParam,
  tempKeyParam,
  transactionHashResult,
} from './primitives.js';

/** transfer params (native coin); signing string `from|to|amount|tempKey|hashKey`. */
export const transferParamsSchema = z
  .object({
    from: addressParam.meta({ description: 'wallet address that pays' }),
    to: addressParam.meta({ description: 'recipient' }),
    amount: amountParam.meta({ description: 'amount in wei (decimal string)' }),
    tempKey: tempKeyParam,
    hashKey: hashKeyParam,
    signature: signatureParam,
  })
  .meta({ title: 'TransferParams' });
export type TransferParams = z.infer<typeof transferParamsSchema>;

/** resultData of transfer: the transaction hash (also in TransactionID). */
export const transferResultSchema = transactionHashResult;
export type TransferResult = z.infer<typeof transferResultSchema>;
