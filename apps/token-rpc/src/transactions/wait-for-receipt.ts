import type { ChainClient } from '@itp/chain';
import { ChainFailureError } from '../errors.js';

export interface ReceiptSummary {
  status: 'success' | 'reverted';
  blockNumber: number;
}

/** Polls eth_getTransactionReceipt until the transaction is mined or `timeoutMs` passes. */
export async function waitForReceipt(
  chain: ChainClient,
  hash: string,
  timeoutMs: number,
  pollMs = 100,
): Promise<ReceiptSummary> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const receipt = await chain.request<{ status?: string; blockNumber?: string } | null>(
      'eth_getTransactionReceipt',
      [hash],
    );
    if (receipt && typeof receipt.blockNumber === 'string') {
      return {
        status: receipt.status === '0x1' ? 'success' : 'reverted',
        blockNumber: Number(receipt.blockNumber),
      };
    }
    if (Date.now() >= deadline) {
      throw new ChainFailureError(`transaction ${hash} was not mined within ${timeoutMs} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
