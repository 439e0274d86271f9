import type { BaseError } from '@itp/errors';

/** `result` of a successful call. */
export interface SuccessResult<D = unknown> {
  resultCode: '200';
  resultMessage: 'Success';
  resultData: D;
}

/** `result` of a successful transaction-creating call. */
export interface TransactionResult<D = unknown> {
  resultCode: '200';
  resultMessage: 'Success';
  TransactionID: string;
  resultData: D;
}

/** `result` of a service error (a BaseError thrown by a handler). */
export interface ServiceErrorResult {
  resultCode: string;
  resultMessage: string;
  resultData: '';
}

/** The `result` of a successful call (kind 'data'). */
export function success<D>(resultData: D): SuccessResult<D> {
  return { resultCode: '200', resultMessage: 'Success', resultData };
}

/** The `result` of a successful transaction-creating call (kind 'transaction'). */
export function transactionSuccess<D>(transactionId: string, resultData: D): TransactionResult<D> {
  return { resultCode: '200', resultMessage: 'Success', TransactionID: transactionId, resultData };
}

/**
 * The service-error `result` for a BaseError: its class code and its message (or `message` when
 * given: the edge replaces the text of an internal failure), empty data.
 */
export function serviceError(err: BaseError, message = err.message): ServiceErrorResult {
  return { resultCode: err.code, resultMessage: message, resultData: '' };
}
