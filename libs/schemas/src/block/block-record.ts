import { z } from 'zod';
import { transactionRecordSchema } from './transaction-record.js';
import { address, hash32, hexData, hexQuantity, uint } from './primitives.js';

const omitted = (what: string) => `null when the node omits it (${what})`;

/**
 * The block record of docs/api.md §5.1: the spec's names and types, plus baseFeePerGas, blobGasUsed
 * and excessBlobGas with their `…Raw` forms. Integer fields are JSON numbers (exact up to
 * 2^53 - 1, rounded beyond); each has a `…Raw` field with the node's exact 0x hex. A mapped field
 * the node does not send is null. Every other field of the node's block (withdrawals,
 * parentBeaconBlockRoot, requestsHash, whatever later forks add) is passed through as sent: the
 * object is open (additional properties allowed).
 */
export const blockRecordSchema = z
  .looseObject({
    hash: hash32.nullable().meta({ description: omitted('only a pending block on some nodes') }),
    parentHash: hash32,
    stateRoot: hash32,
    transactionsRoot: hash32,
    receiptsRoot: hash32,
    sha3Uncles: hash32,
    mixHash: hash32.nullable().meta({ description: omitted('nodes without one') }),
    extraData: hexData,
    logsBloom: hexData,
    miner: address.nullable().meta({ description: omitted('only a pending block on some nodes') }),
    number: uint,
    gasLimit: uint,
    gasUsed: uint,
    timestamp: uint.meta({ description: 'seconds since the Unix epoch' }),
    difficulty: uint.nullable().meta({ description: omitted('post-merge nodes may omit it') }),
    totalDifficulty: uint
      .nullable()
      .meta({ description: omitted('post-merge nodes no longer send it') }),
    nonce: uint.nullable().meta({ description: omitted('only a pending block on some nodes') }),
    size: uint.meta({ description: 'bytes' }),
    numberRaw: hexQuantity,
    gasLimitRaw: hexQuantity,
    gasUsedRaw: hexQuantity,
    timestampRaw: hexQuantity,
    difficultyRaw: hexQuantity.nullable(),
    totalDifficultyRaw: hexQuantity.nullable(),
    nonceRaw: hexQuantity
      .nullable()
      .meta({ description: 'the 8-byte nonce as sent, e.g. 0x0000000000000000' }),
    sizeRaw: hexQuantity,
    baseFeePerGas: uint
      .nullable()
      .meta({ description: 'wei per gas (EIP-1559); null on chains without a base fee' }),
    baseFeePerGasRaw: hexQuantity.nullable(),
    blobGasUsed: uint
      .nullable()
      .meta({ description: omitted('before Cancun (EIP-4844): blob gas used in the block') }),
    blobGasUsedRaw: hexQuantity.nullable(),
    excessBlobGas: uint.nullable().meta({ description: omitted('before Cancun (EIP-4844)') }),
    excessBlobGasRaw: hexQuantity.nullable(),
    withdrawals: z.array(z.looseObject({})).optional().meta({
      description:
        'as the node sent them (Shanghai, EIP-4895): { index, validatorIndex, address, amount } in hex; absent before',
    }),
    withdrawalsRoot: hash32.optional().meta({ description: 'as sent; absent before Shanghai' }),
    parentBeaconBlockRoot: hash32
      .optional()
      .meta({ description: 'as sent; absent before Cancun (EIP-4788)' }),
    requestsHash: hash32
      .optional()
      .meta({ description: 'as sent; absent before Prague (EIP-7685)' }),
    sealFields: z
      .array(hexData)
      .nullable()
      .meta({ description: 'seal fields of Parity-style nodes; null when the node has none' }),
    author: address
      .nullable()
      .meta({ description: 'block author of Parity-style nodes; null when the node has none' }),
    uncles: z.array(hash32).meta({ description: 'hashes of the uncle blocks' }),
    transactions: z.union([z.array(hash32), z.array(transactionRecordSchema)]).meta({
      description:
        'transaction hashes, or transaction records when the second getBlock param is true',
    }),
  })
  .meta({ title: 'BlockRecord' });
export type BlockRecord = z.infer<typeof blockRecordSchema>;
