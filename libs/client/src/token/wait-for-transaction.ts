import { NotFoundError, TimeoutError } from '../errors/error-classes.js';
import { deadline } from '../http/deadline.js';
import { sleep } from '../http/sleep.js';
import type {
  CallOptions,
  GetTransactionStatusResult,
  TransactionReceipt,
  WaitForTransactionOptions,
} from '../types.js';

export const DEFAULT_TRANSACTION_POLL_MS = 500;
export const DEFAULT_TRANSACTION_WAIT_MS = 120_000;

export interface TransactionReaders {
  /** token API getTransactionStatus of the transaction */
  status(call: CallOptions): Promise<GetTransactionStatusResult>;
  /** block API getTransactionReceipt of the transaction (NotFoundError while not mined) */
  receipt(call: CallOptions): Promise<TransactionReceipt>;
}

/**
 * The status record completed from the chain's receipt: the service settles its record on its
 * reconciler's schedule (TX_RECONCILE_INTERVAL_MS, 30 s by default), the receipt is there as soon
 * as the block is.
 */
export function settledByReceipt(
  status: GetTransactionStatusResult,
  receipt: TransactionReceipt,
): GetTransactionStatusResult {
  const reverted = receipt.status === 'reverted';
  return {
    ...status,
    status: reverted ? 'failed' : 'mined',
    final: true,
    blockNumber: receipt.blockNumber,
    contractAddress: receipt.contractAddress ?? status.contractAddress,
    error: reverted ? 'reverted (receipt status 0)' : null,
  };
}

/**
 * Waits until `transactionId` is final and returns its status record: final in the token API's
 * record (mined, failed, dropped), or in a block by its receipt (block API), whichever comes
 * first. TimeoutError after `timeoutMs`, AbortedError when `signal` fires.
 */
export async function waitForTransaction(
  read: TransactionReaders,
  transactionId: string,
  options: WaitForTransactionOptions = {},
): Promise<GetTransactionStatusResult> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TRANSACTION_WAIT_MS;
  const interval = options.intervalMs ?? DEFAULT_TRANSACTION_POLL_MS;
  const limit = deadline(options.signal, timeoutMs);
  const call = { signal: limit.signal };
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        const status = await read.status(call);
        if (status.final) return status;
        const receipt = await read.receipt(call).catch((err: unknown) => {
          if (err instanceof NotFoundError) return undefined;
          throw err;
        });
        if (receipt) return settledByReceipt(status, receipt);
        options.onPoll?.(status, attempt);
        await sleep(interval, limit.signal, 'getTransactionStatus');
      } catch (err) {
        if (limit.timedOut()) {
          throw new TimeoutError(`${transactionId} was not final within ${timeoutMs} ms`, {
            source: 'client',
            operation: 'getTransactionStatus',
          });
        }
        throw err;
      }
    }
  } finally {
    limit.clear();
  }
}
