import { z } from 'zod';
import { address, decimalString, hash32, hexData, hexQuantity, uint } from './primitives.js';

/**
 * The block's timestamp as newer nodes send it beside a log, a receipt or a transaction (as hex,
 * or — anvil 1.7 — as a number): normalised like every numeric field, seconds + `…Raw` hex.
 */
export const blockTimestampFields = {
  blockTimestamp: uint.optional().meta({
    description: "seconds; the block's timestamp, present when the node sends it",
  }),
  blockTimestampRaw: hexQuantity.optional(),
};

/** One log of a receipt; numeric fields have `…Raw` hex siblings (web3j's Log); unknown fields pass through. */
export const receiptLogSchema = z
  .looseObject({
    address,
    topics: z.array(hash32),
    data: hexData,
    logIndex: uint,
    transactionIndex: uint,
    transactionHash: hash32,
    blockHash: hash32,
    blockNumber: uint,
    removed: z.boolean(),
    logIndexRaw: hexQuantity,
    transactionIndexRaw: hexQuantity,
    blockNumberRaw: hexQuantity,
    ...blockTimestampFields,
  })
  .meta({ title: 'ReceiptLog' });
export type ReceiptLog = z.infer<typeof receiptLogSchema>;

/**
 * The receipt of a mined transaction, normalised from the node's answer. Numeric fields have
 * `…Raw` hex siblings (web3j's TransactionReceipt); fields not listed (blobGasUsed, blobGasPrice,
 * later forks) are passed through as the node sent them.
 */
export const transactionReceiptSchema = z
  .looseObject({
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
    transactionIndexRaw: hexQuantity,
    blockNumberRaw: hexQuantity,
    cumulativeGasUsedRaw: hexQuantity,
    gasUsedRaw: hexQuantity,
    effectiveGasPriceRaw: hexQuantity.nullable(),
    statusRaw: hexQuantity.nullable().meta({
      description: "the node's status hex (0x1 success, 0x0 reverted); null pre-Byzantium",
    }),
    typeRaw: hexQuantity.meta({ description: "the node's hex (0x0 when it sent none: legacy)" }),
    blobGasUsed: uint.optional().meta({ description: 'blob transactions, when the node sends it' }),
    blobGasUsedRaw: hexQuantity.optional(),
    blobGasPrice: decimalString
      .optional()
      .meta({ description: 'wei; blob transactions, when the node sends it' }),
    blobGasPriceRaw: hexQuantity.optional(),
    ...blockTimestampFields,
  })
  .meta({ title: 'TransactionReceipt' });
export type TransactionReceipt = z.infer<typeof transactionReceiptSchema>;
