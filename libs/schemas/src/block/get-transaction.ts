import { z } from 'zod';
import { hash32 } from './primitives.js';
import { transactionRecordSchema } from './transaction-record.js';

/** getTransaction params: `[transactionHash]`. */
export const getTransactionParamsSchema = z
  .tuple([hash32.meta({ title: 'transactionHash', description: '0x-prefixed 32-byte hash' })])
  .meta({ title: 'GetTransactionParams' });
export type GetTransactionParams = z.infer<typeof getTransactionParamsSchema>;

export const getTransactionResultSchema = transactionRecordSchema;
export type GetTransactionResult = z.infer<typeof getTransactionResultSchema>;
