import { defineMethod } from '@itp/jsonrpc';
import {
  getTransactionParamsSchema,
  getTransactionReceiptParamsSchema,
  getTransactionReceiptResultSchema,
  getTransactionResultSchema,
} from '@itp/schemas';
import type { TransactionService } from './transaction-service.js';

const CHAIN_ERROR = { resultCode: '500', when: 'the chain node failed or did not answer' };

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
      CHAIN_ERROR,
    ],
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
      CHAIN_ERROR,
    ],
    handler: ([hash]) => transactions.getReceipt(hash.toLowerCase()),
  });
}
