import { z } from 'zod';
import { answerOptionsSchema, nodeTransactionSchema } from './node-format.js';
import { hash32 } from './primitives.js';
import { transactionRecordSchema } from './transaction-record.js';

/** getTransaction params: `[transactionHash]` or `[transactionHash, { format }]` (node-format.ts). */
export const getTransactionParamsSchema = z
  .tuple([
    hash32.meta({ title: 'transactionHash', description: '0x-prefixed 32-byte hash' }),
    answerOptionsSchema.optional(),
  ])
  .meta({ title: 'GetTransactionParams' });
export type GetTransactionParams = z.infer<typeof getTransactionParamsSchema>;

export const getTransactionResultSchema = z.union([transactionRecordSchema, nodeTransactionSchema]);
export type GetTransactionResult = z.infer<typeof getTransactionResultSchema>;
