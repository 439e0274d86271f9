import { defineMethod } from '@itp/jsonrpc';
import {
  getBlockNumberParamsSchema,
  getBlockNumberResultSchema,
  getBlockParamsSchema,
  getBlockResultSchema,
  BLOCK_CHAIN_ERRORS as CHAIN_ERRORS,
} from '@itp/schemas';
import type { BlockService } from '../blocks/block-service.js';
import { toBlockSelector } from '../blocks/block-selector.js';
import { toNodeBlock } from '../chain/node-format.js';
import { EXAMPLE_BLOCK, EXAMPLE_TRANSACTION } from './examples.js';

export function getBlockMethod(blocks: BlockService) {
  return defineMethod({
    name: 'getBlock',
    summary: 'A block: the latest, by number, by tag or by hash',
    description:
      'params: [] = latest; [block], [block, fullTransactions] or [block, fullTransactions, { format }]. block: a non-negative integer, a 0x-hex quantity, "latest", "earliest", "pending", "safe", "finalized" or a 0x-prefixed 32-byte block hash. fullTransactions true: transaction records instead of hashes. Integer fields are exact up to 2^53-1; each has a …Raw field with the exact 0x hex. Fields the node does not send are null. { format: "node" }: the block in the Ethereum JSON-RPC shape of eth_getBlockByNumber instead (every quantity 0x hex, as web3j\'s EthBlock.Block reads it).',
    paramsStyle: 'positional',
    params: getBlockParamsSchema,
    result: getBlockResultSchema,
    errors: [
      {
        resultCode: '404',
        when: 'no such block (number beyond the head, unknown hash, tag the node lacks)',
      },
      ...CHAIN_ERRORS,
    ],
    examples: [
      { name: 'block 1 with hashes', params: [1], result: EXAMPLE_BLOCK },
      {
        name: 'latest with transaction records',
        params: ['latest', true],
        result: { ...EXAMPLE_BLOCK, transactions: [EXAMPLE_TRANSACTION] },
      },
      {
        name: 'block 1 in the node format (web3j)',
        params: [1, false, { format: 'node' }],
        result: toNodeBlock(EXAMPLE_BLOCK),
      },
    ],
    handler: async ([block, fullTransactions, options]) =>
      options?.format === 'node'
        ? toNodeBlock(await blocks.getBlock(toBlockSelector(block), fullTransactions ?? false))
        : blocks.getBlockAnswer(toBlockSelector(block), fullTransactions ?? false),
  });
}

export function getBlockNumberMethod(blocks: BlockService) {
  return defineMethod({
    name: 'getBlockNumber',
    summary: 'Number of the latest block',
    paramsStyle: 'positional',
    params: getBlockNumberParamsSchema,
    result: getBlockNumberResultSchema,
    errors: CHAIN_ERRORS,
    examples: [{ name: 'the head', params: [], result: 1 }],
    handler: () => blocks.latestNumber(),
  });
}
