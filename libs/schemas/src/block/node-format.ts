import { z } from 'zod';
import { address, hash32, hexData, hexQuantity } from './primitives.js';

/**
 * The answer format of getBlock, getTransaction and getTransactionReceipt, chosen per call by an
 * options object after the existing params (`{ "format": "node" }`). "record" (the default) is
 * the normalised record of docs/api.md §5.1; "node" is the Ethereum JSON-RPC shape of
 * eth_getBlockByNumber / eth_getTransactionByHash / eth_getTransactionReceipt — every quantity a
 * 0x hex string, status "0x1"/"0x0" — that web3j's EthBlock.Block, Transaction and
 * TransactionReceipt deserialize unchanged.
 */
export const ANSWER_FORMATS = ['record', 'node'] as const;
export type AnswerFormat = (typeof ANSWER_FORMATS)[number];

export const answerOptionsSchema = z
  .strictObject({
    format: z.enum(ANSWER_FORMATS).optional().meta({
      description:
        'record (default): integers + …Raw hex, wei as decimal strings, status "success"/"reverted"; node: the Ethereum JSON-RPC shape (eth_getBlockByNumber, eth_getTransactionByHash, eth_getTransactionReceipt): every quantity 0x hex, status 0x1/0x0, as web3j reads it',
    }),
  })
  .meta({ title: 'options', description: 'answer options; {} or omitted: the record format' });
export type AnswerOptions = z.infer<typeof answerOptionsSchema>;

const quantity = hexQuantity.meta({ description: '0x hex quantity' });
const pendingNull = (schema: z.ZodString) =>
  schema.nullable().meta({ description: 'null while pending' });

/** A transaction in the node format (eth_getTransactionByHash); other fields pass through. */
export const nodeTransactionSchema = z
  .looseObject({
    hash: hash32,
    blockHash: pendingNull(hash32),
    blockNumber: pendingNull(quantity),
    transactionIndex: pendingNull(quantity),
    from: address,
    to: address.nullable().meta({ description: 'null for a contract creation' }),
    value: quantity,
    gas: quantity,
    gasPrice: quantity.optional(),
    maxFeePerGas: quantity.optional(),
    maxPriorityFeePerGas: quantity.optional(),
    nonce: quantity,
    input: hexData,
    type: quantity,
    chainId: quantity.optional(),
    v: hexData.optional(),
    r: hexData.optional(),
    s: hexData.optional(),
    yParity: quantity.optional().meta({ description: '0x0 or 0x1; absent for legacy' }),
  })
  .meta({ title: 'NodeTransaction' });

/** A receipt log in the node format. */
export const nodeLogSchema = z
  .looseObject({
    address,
    topics: z.array(hash32),
    data: hexData,
    logIndex: quantity,
    transactionIndex: quantity,
    transactionHash: hash32,
    blockHash: hash32,
    blockNumber: quantity,
    removed: z.boolean(),
  })
  .meta({ title: 'NodeLog' });

/** A receipt in the node format (eth_getTransactionReceipt); other fields pass through. */
export const nodeReceiptSchema = z
  .looseObject({
    transactionHash: hash32,
    transactionIndex: quantity,
    blockHash: hash32,
    blockNumber: quantity,
    from: address,
    to: address.nullable(),
    contractAddress: address.nullable(),
    status: quantity
      .optional()
      .meta({ description: '0x1 success, 0x0 reverted; absent pre-Byzantium' }),
    gasUsed: quantity,
    cumulativeGasUsed: quantity,
    effectiveGasPrice: quantity.optional(),
    type: quantity,
    logsBloom: hexData,
    logs: z.array(nodeLogSchema),
  })
  .meta({ title: 'NodeTransactionReceipt' });

/** A block in the node format (eth_getBlockByNumber / eth_getBlockByHash); other fields pass through. */
export const nodeBlockSchema = z
  .looseObject({
    hash: hash32.nullable(),
    parentHash: hash32,
    stateRoot: hash32,
    transactionsRoot: hash32,
    receiptsRoot: hash32,
    sha3Uncles: hash32,
    extraData: hexData,
    logsBloom: hexData,
    miner: address.nullable(),
    number: quantity,
    gasLimit: quantity,
    gasUsed: quantity,
    timestamp: quantity,
    size: quantity,
    nonce: quantity.nullable().optional(),
    difficulty: quantity.optional(),
    baseFeePerGas: quantity.optional(),
    uncles: z.array(hash32),
    transactions: z.union([z.array(hash32), z.array(nodeTransactionSchema)]),
  })
  .meta({ title: 'NodeBlock' });
