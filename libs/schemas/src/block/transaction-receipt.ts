import { z } from 'zod';
import { address, decimalString, hash32, hexData, uint } from './primitives.js';

export const receiptLogSchema = z
  .object({
    address,
    topics: z.array(hash32),
    data: hexData,
    logIndex: uint,
    transactionIndex: uint,
    transactionHash: hash32,
    blockHash: hash32,
    blockNumber: uint,
    removed: z.boolean(),
  })
  .meta({ title: 'ReceiptLog' });
export type ReceiptLog = z.infer<typeof receiptLogSchema>;

/** The receipt of a mined transaction, normalised from the node's answer. */
export const transactionReceiptSchema = z
  .object({
    transactionHash: hash32,
    transactionIndex: uint,
    blockHash: hash32,
    blockNumber: uint,
    from: address,
    to: address.nullable().meta({ description: 'null for a contract creation' }),
    contractAddress: address
      .nullable()
      .meta({ description: 'the created contract; null unless a contract creation' }),
    status: z
      .enum(['success', 'reverted'])
      .nullable()
      .meta({ description: 'null only for pre-Byzantium receipts (they carry a state root)' }),
    gasUsed: uint,
    cumulativeGasUsed: uint,
    effectiveGasPrice: decimalString
      .nullable()
      .meta({ description: 'wei; null when the node gives none' }),
    type: uint,
    logsBloom: hexData,
    logs: z.array(receiptLogSchema),
  })
  .meta({ title: 'TransactionReceipt' });
export type TransactionReceipt = z.infer<typeof transactionReceiptSchema>;
