import { nodeFields } from '../chain/node-fields.js';
import type { IndexedBlock } from './block-index-store.js';

/** eth_getBlockByNumber(n, false) → what the index keeps of the block. */
export function mapIndexedBlock(raw: unknown): IndexedBlock {
  const f = nodeFields(raw, 'block');
  return {
    number: f.int('number'),
    hash: f.req('hash', 'hash').toLowerCase(),
    parentHash: f.req('parentHash', 'hash').toLowerCase(),
    timestamp: f.int('timestamp'),
    txCount: f.array('transactions').length,
  };
}
