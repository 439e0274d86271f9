import type { ReceiptLog, TransactionReceipt } from '@itp/schemas';
import { NodeAnswerError } from '../errors.js';
import { nodeFields, type NodeFields } from '../chain/node-fields.js';

function mapLog(f: NodeFields, raw: unknown, i: number): ReceiptLog {
  const l = f.nested(raw, `receipt log ${i}`);
  return {
    ...l.all(),
    address: l.req('address', 'address'),
    topics: l.list('topics', 'hash'),
    data: l.req('data', 'data'),
    logIndex: l.int('logIndex'),
    transactionIndex: l.int('transactionIndex'),
    transactionHash: l.req('transactionHash', 'hash'),
    blockHash: l.req('blockHash', 'hash'),
    blockNumber: l.int('blockNumber'),
    removed: l.bool('removed', false),
    logIndexRaw: l.req('logIndex', 'quantity'),
    transactionIndexRaw: l.req('transactionIndex', 'quantity'),
    blockNumberRaw: l.req('blockNumber', 'quantity'),
    ...l.pairIfPresent('blockTimestamp'),
  };
}

function statusOf(f: NodeFields): TransactionReceipt['status'] {
  const raw = f.intOrNull('status');
  if (raw === null) return null;
  if (raw === 1) return 'success';
  if (raw === 0) return 'reverted';
  throw new NodeAnswerError('receipt', 'status');
}

/**
 * eth_getTransactionReceipt → the normalised receipt. Every numeric field gets a `…Raw` sibling
 * with the node's exact hex (web3j's TransactionReceipt getters: statusRaw, typeRaw,
 * effectiveGasPriceRaw, …); fields the mapping does not know (later forks) pass through as sent.
 */
export function mapReceipt(raw: unknown): TransactionReceipt {
  const f = nodeFields(raw, 'receipt');
  return {
    ...f.all(),
    transactionHash: f.req('transactionHash', 'hash'),
    transactionIndex: f.int('transactionIndex'),
    blockHash: f.req('blockHash', 'hash'),
    blockNumber: f.int('blockNumber'),
    from: f.req('from', 'address'),
    to: f.opt('to', 'address'),
    contractAddress: f.opt('contractAddress', 'address'),
    status: statusOf(f),
    gasUsed: f.int('gasUsed'),
    cumulativeGasUsed: f.int('cumulativeGasUsed'),
    effectiveGasPrice: f.decimalOrNull('effectiveGasPrice'),
    type: f.intOrNull('type') ?? 0,
    logsBloom: f.req('logsBloom', 'data'),
    logs: f.array('logs').map((log, i) => mapLog(f, log, i)),
    transactionIndexRaw: f.req('transactionIndex', 'quantity'),
    blockNumberRaw: f.req('blockNumber', 'quantity'),
    cumulativeGasUsedRaw: f.req('cumulativeGasUsed', 'quantity'),
    gasUsedRaw: f.req('gasUsed', 'quantity'),
    effectiveGasPriceRaw: f.opt('effectiveGasPrice', 'quantity'),
    statusRaw: f.opt('status', 'quantity'),
    typeRaw: f.opt('type', 'quantity') ?? '0x0',
    ...f.pairIfPresent('blobGasUsed'),
    ...f.weiPairIfPresent('blobGasPrice'),
    ...f.pairIfPresent('blockTimestamp'),
  };
}
