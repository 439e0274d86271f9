/**
 * `--wait`: until a transaction the platform sent is final. Each round reads the token API's
 * record (getTransactionStatus) and, while that is not final yet, the block API's receipt
 * (getTransactionReceipt): token-rpc settles its record against the chain only every
 * TX_RECONCILE_INTERVAL_MS (30 s by default), the receipt is there as soon as the block is. A
 * receipt makes the record final here: `mined` (receipt status success) or `failed` (reverted).
 */
import { setTimeout as delay } from 'node:timers/promises';
import {
  NotFoundError,
  type GetTransactionStatusResult,
  type ItpClient,
  type TransactionReceipt,
} from '@itp/client';

export const WAIT_POLL_MS = 500;

export interface WaitOptions {
  /** Ends the wait (the caller's deadline); the promise then rejects. */
  signal: AbortSignal;
  /** Called after each round that was not final yet. */
  onPoll?: (status: GetTransactionStatusResult, round: number) => void;
  intervalMs?: number;
}

async function receiptOf(
  client: ItpClient,
  transactionId: string,
  signal: AbortSignal,
): Promise<TransactionReceipt | undefined> {
  try {
    return await client.block.getTransactionReceipt(transactionId, { signal });
  } catch (err) {
    if (err instanceof NotFoundError) return undefined; // not in a block yet
    throw err;
  }
}

/** The token API's record, final by the receipt's outcome. */
function settledBy(
  status: GetTransactionStatusResult,
  receipt: TransactionReceipt,
): GetTransactionStatusResult {
  const reverted = receipt.status === 'reverted';
  return {
    ...status,
    status: reverted ? 'failed' : 'mined',
    final: true,
    blockNumber: receipt.blockNumber,
    error: reverted ? 'reverted (receipt status 0)' : status.error,
  };
}

export async function waitUntilFinal(
  client: ItpClient,
  transactionId: string,
  options: WaitOptions,
): Promise<GetTransactionStatusResult> {
  const { signal } = options;
  for (let round = 1; ; round++) {
    const status = await client.token.getTransactionStatus({ transactionId }, { signal });
    if (status.final) return status;
    const receipt = await receiptOf(client, transactionId, signal);
    if (receipt) return settledBy(status, receipt);
    options.onPoll?.(status, round);
    await delay(options.intervalMs ?? WAIT_POLL_MS, undefined, { signal });
  }
}
