import {
  success,
  transactionSuccess,
  type SuccessResult,
  type TransactionResult,
} from './envelope.js';
import type { RpcMethod, TransactionOutcome } from './method.js';

function isTransactionOutcome(value: unknown): value is TransactionOutcome<unknown> {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as { transactionId?: unknown }).transactionId === 'string' &&
    'resultData' in value
  );
}

/**
 * Turns what a handler returned into the success `result`: resultData as is (undefined → null, so
 * the member is always present), or for kind 'transaction' a TransactionOutcome →
 * `TransactionID` + `resultData`. A transaction handler that returns anything else is a bug
 * (TypeError → -32603).
 */
export function wrapOutcome(
  method: Pick<RpcMethod, 'name' | 'kind'>,
  outcome: unknown,
): SuccessResult | TransactionResult {
  if (method.kind === 'transaction') {
    if (!isTransactionOutcome(outcome)) {
      throw new TypeError(
        `method ${method.name} is kind 'transaction' but did not return { transactionId, resultData }`,
      );
    }
    return transactionSuccess(outcome.transactionId, outcome.resultData ?? null);
  }
  return success(outcome === undefined ? null : outcome);
}
