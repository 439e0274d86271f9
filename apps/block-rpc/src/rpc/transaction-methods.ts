import { defineMethod } from '@itp/jsonrpc';
import {
  getTransactionParamsSchema,
  getTransactionReceiptParamsSchema,
  getTransactionReceiptResultSchema,
  getTransactionResultSchema,
  BLOCK_CHAIN_ERRORS as CHAIN_ERRORS,
} from '@itp/schemas';
import type { TransactionService } from '../transactions/transaction-service.js';
import { toNodeReceipt, toNodeTransaction } from '../chain/node-format.js';
import { EXAMPLE_RECEIPT, EXAMPLE_TRANSACTION, EXAMPLE_TX_HASH } from './examples.js';

export function getTransactionMethod(transactions: TransactionService) {
  return defineMethod({
    name: 'getTransaction',
    summary: 'A transaction by hash (mined or pending)',
    description:
      'params: [transactionHash] or [transactionHash, { format }]. Amounts (value, gas prices) are exact decimal strings of wei; a pending transaction has blockHash, blockNumber and transactionIndex null. { format: "node" }: the Ethereum JSON-RPC shape of eth_getTransactionByHash instead (every quantity 0x hex, as web3j\'s Transaction reads it).',
    paramsStyle: 'positional',
    params: getTransactionParamsSchema,
    result: getTransactionResultSchema,
    errors: [
      { resultCode: '404', when: 'the node knows no transaction with this hash' },
      ...CHAIN_ERRORS,
    ],
    examples: [
      { name: 'an ETH transfer', params: [EXAMPLE_TX_HASH], result: EXAMPLE_TRANSACTION },
      {
        name: 'an ETH transfer in the node format (web3j)',
        params: [EXAMPLE_TX_HASH, { format: 'node' }],
        result: toNodeTransaction(EXAMPLE_TRANSACTION),
      },
    ],
    handler: async ([hash, options]) => {
      const record = await transactions.getTransaction(hash.toLowerCase());
      return options?.format === 'node' ? toNodeTransaction(record) : record;
    },
  });
}

export function getTransactionReceiptMethod(transactions: TransactionService) {
  return defineMethod({
    name: 'getTransactionReceipt',
    summary: 'The receipt of a mined transaction',
    description:
      'params: [transactionHash] or [transactionHash, { format }]. status is "success" or "reverted" (null only for pre-Byzantium receipts). { format: "node" }: the Ethereum JSON-RPC shape of eth_getTransactionReceipt instead (status 0x1/0x0, every quantity 0x hex, as web3j\'s TransactionReceipt reads it).',
    paramsStyle: 'positional',
    params: getTransactionReceiptParamsSchema,
    result: getTransactionReceiptResultSchema,
    errors: [
      { resultCode: '404', when: 'unknown transaction, or still pending (no receipt yet)' },
      ...CHAIN_ERRORS,
    ],
    examples: [
      { name: 'an ETH transfer', params: [EXAMPLE_TX_HASH], result: EXAMPLE_RECEIPT },
      {
        name: 'an ETH transfer in the node format (web3j)',
        params: [EXAMPLE_TX_HASH, { format: 'node' }],
        result: toNodeReceipt(EXAMPLE_RECEIPT),
      },
    ],
    handler: async ([hash, options]) => {
      const record = await transactions.getReceipt(hash.toLowerCase());
      return options?.format === 'node' ? toNodeReceipt(record) : record;
    },
  });
}
