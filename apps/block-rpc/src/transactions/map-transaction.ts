import type { TransactionRecord } from '@itp/schemas';
import { NodeAnswerError } from '../errors.js';
import { nodeFields, type NodeFields } from '../chain/node-fields.js';

function accessListOf(f: NodeFields): TransactionRecord['accessList'] {
  const entries = f.arrayOrNull('accessList');
  if (entries === null) return null;
  return entries.map((entry, i) => {
    const e = f.nested(entry, `transaction accessList[${i}]`);
    return { address: e.req('address', 'address'), storageKeys: e.list('storageKeys', 'hash') };
  });
}

function yParityOf(f: NodeFields): 0 | 1 | null {
  const raw = f.intOrNull('yParity');
  if (raw === null) return null;
  if (raw !== 0 && raw !== 1) throw new NodeAnswerError('transaction', 'yParity');
  return raw;
}

/**
 * eth_getTransactionByHash / a full block's transaction → the normalised transaction record.
 * Every numeric field gets a `…Raw` sibling with the node's exact hex (web3j's Transaction
 * getters: chainIdRaw, typeRaw, yParityRaw, …); fields the mapping does not know (later forks)
 * pass through as sent.
 */
export function mapTransaction(raw: unknown): TransactionRecord {
  const f = nodeFields(raw, 'transaction');
  return {
    ...f.all(),
    hash: f.req('hash', 'hash'),
    blockHash: f.opt('blockHash', 'hash'),
    blockNumber: f.intOrNull('blockNumber'),
    transactionIndex: f.intOrNull('transactionIndex'),
    from: f.req('from', 'address'),
    to: f.opt('to', 'address'),
    value: f.decimal('value'),
    gas: f.int('gas'),
    gasPrice: f.decimalOrNull('gasPrice'),
    maxFeePerGas: f.decimalOrNull('maxFeePerGas'),
    maxPriorityFeePerGas: f.decimalOrNull('maxPriorityFeePerGas'),
    nonce: f.int('nonce'),
    input: f.req('input', 'data'),
    type: f.intOrNull('type') ?? 0,
    chainId: f.intOrNull('chainId'),
    v: f.opt('v', 'quantity'),
    r: f.opt('r', 'quantity'),
    s: f.opt('s', 'quantity'),
    yParity: yParityOf(f),
    accessList: accessListOf(f),
    nonceRaw: f.req('nonce', 'quantity'),
    blockNumberRaw: f.opt('blockNumber', 'quantity'),
    transactionIndexRaw: f.opt('transactionIndex', 'quantity'),
    valueRaw: f.req('value', 'quantity'),
    gasPriceRaw: f.opt('gasPrice', 'quantity'),
    gasRaw: f.req('gas', 'quantity'),
    maxFeePerGasRaw: f.opt('maxFeePerGas', 'quantity'),
    maxPriorityFeePerGasRaw: f.opt('maxPriorityFeePerGas', 'quantity'),
    typeRaw: f.opt('type', 'quantity') ?? '0x0',
    chainIdRaw: f.opt('chainId', 'quantity'),
    yParityRaw: f.opt('yParity', 'quantity'),
    ...f.pairIfPresent('blockTimestamp'),
    ...f.weiPairIfPresent('maxFeePerBlobGas'),
  };
}
