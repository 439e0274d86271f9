import type { BlockRecord, TransactionRecord } from '@itp/schemas';
import { NodeAnswerError } from '../errors.js';
import { nodeFields, toNumber, type NodeFields } from '../chain/node-fields.js';
import { mapTransaction } from '../transactions/map-transaction.js';

/**
 * The block's own fields: BlockRecord without `transactions` (key remapping keeps the named
 * fields, which `Omit` would lose to the open record's index signature), still open.
 */
type BlockHeader = {
  [
    K in keyof BlockRecord as string extends K ? never : K extends 'transactions' ? never : K
  ]: BlockRecord[K];
} & Record<string, unknown>;

/** A block whose `transactions` are full records (what the service fetches and caches). */
export type FullBlockRecord = BlockHeader & { transactions: TransactionRecord[] };

function quantityPair(f: NodeFields, field: string): [number, string] {
  const raw = f.req(field, 'quantity');
  return [toNumber(raw), raw];
}

function optionalPair(f: NodeFields, field: string): [number | null, string | null] {
  const raw = f.opt(field, 'quantity');
  return raw === null ? [null, null] : [toNumber(raw), raw];
}

/** The block's own fields (everything but `transactions`). */
function mapHeader(f: NodeFields): BlockHeader {
  const [number, numberRaw] = quantityPair(f, 'number');
  const [gasLimit, gasLimitRaw] = quantityPair(f, 'gasLimit');
  const [gasUsed, gasUsedRaw] = quantityPair(f, 'gasUsed');
  const [timestamp, timestampRaw] = quantityPair(f, 'timestamp');
  const [size, sizeRaw] = quantityPair(f, 'size');
  const [difficulty, difficultyRaw] = optionalPair(f, 'difficulty');
  const [totalDifficulty, totalDifficultyRaw] = optionalPair(f, 'totalDifficulty');
  const [nonce, nonceRaw] = optionalPair(f, 'nonce');
  const [baseFeePerGas, baseFeePerGasRaw] = optionalPair(f, 'baseFeePerGas');
  const [blobGasUsed, blobGasUsedRaw] = optionalPair(f, 'blobGasUsed');
  const [excessBlobGas, excessBlobGasRaw] = optionalPair(f, 'excessBlobGas');
  const { transactions: _transactions, ...unmapped } = f.all();
  return {
    // Fields this mapping does not know (withdrawals, withdrawalsRoot, parentBeaconBlockRoot,
    // requestsHash, anything a later fork adds) pass through as the node sent them.
    ...unmapped,
    hash: f.opt('hash', 'hash'),
    parentHash: f.req('parentHash', 'hash'),
    stateRoot: f.req('stateRoot', 'hash'),
    transactionsRoot: f.req('transactionsRoot', 'hash'),
    receiptsRoot: f.req('receiptsRoot', 'hash'),
    sha3Uncles: f.req('sha3Uncles', 'hash'),
    mixHash: f.opt('mixHash', 'hash'),
    extraData: f.req('extraData', 'data'),
    logsBloom: f.req('logsBloom', 'data'),
    miner: f.opt('miner', 'address'),
    number,
    gasLimit,
    gasUsed,
    timestamp,
    difficulty,
    totalDifficulty,
    nonce,
    size,
    numberRaw,
    gasLimitRaw,
    gasUsedRaw,
    timestampRaw,
    difficultyRaw,
    totalDifficultyRaw,
    nonceRaw,
    sizeRaw,
    baseFeePerGas,
    baseFeePerGasRaw,
    blobGasUsed,
    blobGasUsedRaw,
    excessBlobGas,
    excessBlobGasRaw,
    sealFields: f.listOrNull('sealFields', 'data'),
    author: f.opt('author', 'address'),
    uncles: f.list('uncles', 'hash'),
  };
}

/**
 * eth_getBlockBy{Number,Hash}(…, true) → the block record with full transaction records.
 * A node answer without transaction objects (hashes only) is refused: the service always asks
 * for full blocks and derives the hash-only view (toHashView).
 */
export function mapFullBlock(raw: unknown): FullBlockRecord {
  const f = nodeFields(raw, 'block');
  const transactions = f.array('transactions').map((tx, i) => {
    if (typeof tx === 'string') throw new NodeAnswerError('block', `transactions[${i}]`);
    return mapTransaction(tx);
  });
  return { ...mapHeader(f), transactions };
}

/** The same block with `transactions` as hashes (getBlock's default view). */
export function toHashView(block: FullBlockRecord): BlockRecord {
  return { ...block, transactions: block.transactions.map((tx) => tx.hash) };
}
