import { z } from 'zod';
import { address, decimalString, hash32, hexData, hexQuantity, uint } from './primitives.js';
import { blockTimestampFields } from './transaction-receipt.js';

export const accessListEntrySchema = z.object({
  address,
  storageKeys: z.array(hash32),
});

/**
 * One transaction, normalised from the node's answer. Counts (gas, nonce, indexes, type, chainId)
 * are integers; amounts of wei are exact decimal strings; signature parts stay 0x hex. Numeric
 * fields have a `…Raw` sibling with the node's exact hex (as web3j's Transaction) — one rule for
 * every numeric field: the value (integer, or exact decimal string for wei) and `<name>Raw`.
 * Fields only some nodes or forks send (blockTimestamp, maxFeePerBlobGas) are present when the
 * node sent them; fields not listed (later forks) pass through as the node sent them.
 */
export const transactionRecordSchema = z
  .looseObject({
    hash: hash32,
    blockHash: hash32.nullable().meta({ description: 'null while pending' }),
    blockNumber: uint.nullable().meta({ description: 'null while pending' }),
    transactionIndex: uint.nullable().meta({ description: 'null while pending' }),
    from: address,
    to: address.nullable().meta({ description: 'null for a contract creation' }),
    value: decimalString.meta({ description: 'wei, exact decimal string' }),
    gas: uint.meta({ description: 'gas limit of the transaction' }),
    gasPrice: decimalString.nullable().meta({
      description:
        'wei; for a mined EIP-1559 transaction the effective gas price; null when the node gives none',
    }),
    maxFeePerGas: decimalString.nullable().meta({ description: 'wei; null before EIP-1559 types' }),
    maxPriorityFeePerGas: decimalString
      .nullable()
      .meta({ description: 'wei; null before EIP-1559 types' }),
    nonce: uint,
    input: hexData,
    type: uint.meta({ description: 'transaction type: 0 legacy, 1 access list, 2 EIP-1559, …' }),
    chainId: uint.nullable().meta({ description: 'null for a legacy transaction without one' }),
    v: hexData.nullable(),
    r: hexData.nullable(),
    s: hexData.nullable(),
    yParity: z
      .union([z.literal(0), z.literal(1)])
      .nullable()
      .meta({ description: 'null for legacy transactions' }),
    accessList: z
      .array(accessListEntrySchema)
      .nullable()
      .meta({ description: 'null for legacy transactions' }),
    nonceRaw: hexQuantity,
    blockNumberRaw: hexQuantity.nullable().meta({ description: 'null while pending' }),
    transactionIndexRaw: hexQuantity.nullable().meta({ description: 'null while pending' }),
    valueRaw: hexQuantity,
    gasPriceRaw: hexQuantity.nullable(),
    gasRaw: hexQuantity,
    maxFeePerGasRaw: hexQuantity.nullable(),
    maxPriorityFeePerGasRaw: hexQuantity.nullable(),
    typeRaw: hexQuantity.meta({ description: "the node's hex (0x0 when it sent none: legacy)" }),
    chainIdRaw: hexQuantity.nullable(),
    yParityRaw: hexQuantity.nullable(),
    ...blockTimestampFields,
    maxFeePerBlobGas: decimalString
      .optional()
      .meta({ description: 'wei; blob transactions (type 3), when the node sends it' }),
    maxFeePerBlobGasRaw: hexQuantity.optional(),
  })
  .meta({ title: 'TransactionRecord' });
export type TransactionRecord = z.infer<typeof transactionRecordSchema>;
