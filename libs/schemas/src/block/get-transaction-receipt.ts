import { z } from 'zod';
import { answerOptionsSchema, nodeReceiptSchema } from './node-format.js';
import { hash32 } from './primitives.js';
import { transactionReceiptSchema } from './transaction-receipt.js';

/** getTransactionReceipt params: `[transactionHash]` or `[transactionHash, { format }]` (node-format.ts). */
export const getTransactionReceiptParamsSchema = z
  .tuple([
    hash32.meta({ title: 'transactionHash', description: '0x-prefixed 32-byte hash' }),
    answerOptionsSchema.optional(),
  ])
  .meta({ title: 'GetTransactionReceiptParams' });
export type GetTransactionReceiptParams = z.infer<typeof getTransactionReceiptParamsSchema>;

export const getTransactionReceiptResultSchema = z.union([
  transactionReceiptSchema,
  nodeReceiptSchema,
]);
export type GetTransactionReceiptResult = z.infer<typeof getTransactionReceiptResultSchema>;
