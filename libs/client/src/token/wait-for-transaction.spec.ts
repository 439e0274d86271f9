import { describe, expect, it } from '@jest/globals';
import { InternalServerError, NotFoundError, TimeoutError } from '../errors/error-classes.js';
import type { GetTransactionStatusResult, TransactionReceipt } from '../types.js';
import { waitForTransaction, type TransactionReaders } from './wait-for-transaction.js';

const TX = `0x${'a'.repeat(64)}`;
const sent: GetTransactionStatusResult = {
  transactionId: TX,
  kind: 'transfer',
  status: 'sent',
  final: false,
  from: '0x1111111111111111111111111111111111111111',
  to: '0x2222222222222222222222222222222222222222',
  contractAddress: null,
  amount: '1',
  nonce: 0,
  blockNumber: null,
  error: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};
const receipt = (status: 'success' | 'reverted') =>
  ({ transactionHash: TX, blockNumber: 7, status, contractAddress: null }) as TransactionReceipt;
const notMined = () => new NotFoundError('no receipt', { source: 'service' });

/** Readers answering the scripted outcomes in order. */
function readers(
  statuses: GetTransactionStatusResult[],
  receipts: Array<TransactionReceipt | Error>,
): TransactionReaders {
  return {
    status: async () => statuses.shift() ?? sent,
    receipt: async () => {
      const next = receipts.shift();
      if (next === undefined || next instanceof Error) throw next ?? notMined();
      return next;
    },
  };
}

describe('waitForTransaction', () => {
  it('returns a final status of the service as it is', async () => {
    const mined = { ...sent, status: 'mined' as const, final: true, blockNumber: 3 };
    await expect(waitForTransaction(readers([mined], []), TX)).resolves.toBe(mined);
  });

  it('polls until the receipt is there and completes the record from it', async () => {
    const attempts: number[] = [];
    const result = await waitForTransaction(
      readers([], [notMined(), notMined(), receipt('success')]),
      TX,
      {
        intervalMs: 1,
        onPoll: (_s, attempt) => attempts.push(attempt),
      },
    );
    expect(attempts).toEqual([1, 2]);
    expect(result).toMatchObject({
      status: 'mined',
      final: true,
      blockNumber: 7,
      error: null,
      kind: 'transfer',
    });
  });

  it('a reverted receipt is a failed transaction', async () => {
    const result = await waitForTransaction(readers([], [receipt('reverted')]), TX);
    expect(result).toMatchObject({ status: 'failed', final: true, blockNumber: 7 });
  });

  it('other errors end the wait; the time limit is TimeoutError', async () => {
    const broken = readers([], [new InternalServerError('x', { source: 'service' })]);
    await expect(waitForTransaction(broken, TX)).rejects.toBeInstanceOf(InternalServerError);
    await expect(
      waitForTransaction(readers([], []), TX, { intervalMs: 60_000, timeoutMs: 5 }),
    ).rejects.toBeInstanceOf(TimeoutError);
  });
});
