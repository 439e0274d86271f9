import { z } from 'zod';
import { address, decimalString, hash32, hexData, hexQuantity, uint } from './primitives.js';

/** Sent by newer nodes, as hex or (anvil 1.7, receipt level) a number; passed through as sent. */
export const blockTimestampPassThrough = z
  .union([hexQuantity, uint])
  .optional()
  .meta({ description: "as sent by nodes that include it: the block's timestamp (hex or number)" });
const blockTimestamp = blockTimestampPassThrough;

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
    blockTimestamp,
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
    blockTimestamp,
  })
  .meta({ title: 'TransactionReceipt' });
export type TransactionReceipt = z.infer<typeof transactionReceiptSchema>;
