import { defineMethod } from '@itp/jsonrpc';
import {
  getTransactionParamsSchema,
  getTransactionReceiptParamsSchema,
  getTransactionReceiptResultSchema,
  getTransactionResultSchema,
  BLOCK_CHAIN_ERRORS as CHAIN_ERRORS,
} from '@itp/schemas';
import type { TransactionService } from '../transactions/transaction-service.js';
import { EXAMPLE_RECEIPT, EXAMPLE_TRANSACTION, EXAMPLE_TX_HASH } from './examples.js';

export function getTransactionMethod(transactions: TransactionService) {
  return defineMethod({
    name: 'getTransaction',
    summary: 'A transaction by hash (mined or pending)',
    description:
      'params: [transactionHash]. Amounts (value, gas prices) are exact decimal strings of wei; a pending transaction has blockHash, blockNumber and transactionIndex null.',
    paramsStyle: 'positional',
    params: getTransactionParamsSchema,
    result: getTransactionResultSchema,
    errors: [
      { resultCode: '404', when: 'the node knows no transaction with this hash' },
      ...CHAIN_ERRORS,
    ],
    examples: [{ name: 'an ETH transfer', params: [EXAMPLE_TX_HASH], result: EXAMPLE_TRANSACTION }],
    handler: ([hash]) => transactions.getTransaction(hash.toLowerCase()),
  });
}

export function getTransactionReceiptMethod(transactions: TransactionService) {
  return defineMethod({
    name: 'getTransactionReceipt',
    summary: 'The receipt of a mined transaction',
    description:
      'params: [transactionHash]. status is "success" or "reverted" (null only for pre-Byzantium receipts).',
    paramsStyle: 'positional',
    params: getTransactionReceiptParamsSchema,
    result: getTransactionReceiptResultSchema,
    errors: [
      { resultCode: '404', when: 'unknown transaction, or still pending (no receipt yet)' },
      ...CHAIN_ERRORS,
    ],
    examples: [{ name: 'an ETH transfer', params: [EXAMPLE_TX_HASH], result: EXAMPLE_RECEIPT }],
    handler: ([hash]) => transactions.getReceipt(hash.toLowerCase()),
  });
}
