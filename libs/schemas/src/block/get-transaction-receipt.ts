import { z } from 'zod';
import { hash32 } from './primitives.js';
import { transactionReceiptSchema } from './transaction-receipt.js';

/** getTransactionReceipt params: `[transactionHash]`. */
export const getTransactionReceiptParamsSchema = z
  .tuple([hash32.meta({ title: 'transactionHash', description: '0x-prefixed 32-byte hash' })])
  .meta({ title: 'GetTransactionReceiptParams' });
export type GetTransactionReceiptParams = z.infer<typeof getTransactionReceiptParamsSchema>;

export const getTransactionReceiptResultSchema = transactionReceiptSchema;
export type GetTransactionReceiptResult = z.infer<typeof getTransactionReceiptResultSchema>;
