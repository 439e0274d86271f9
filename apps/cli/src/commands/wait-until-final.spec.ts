import { describe, expect, it } from '@jest/globals';
import {
  NotFoundError,
  ServiceUnavailableError,
  type GetTransactionStatusResult,
  type ItpClient,
} from '@itp/client';
import { waitUntilFinal } from './wait-until-final.js';

const TX = `0x${'cd'.repeat(32)}`;

const record = (over: Partial<GetTransactionStatusResult> = {}): GetTransactionStatusResult => ({
  transactionId: TX,
  kind: 'transfer',
  status: 'sent',
  final: false,
  from: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  contractAddress: null,
  amount: '1',
  nonce: 3,
  blockNumber: null,
  error: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...over,
});

const pending = () => new NotFoundError(`${TX} not found`, { source: 'service' });

/** A client whose status reads and receipt reads answer from the given lists, in turn. */
function fakeClient(statuses: GetTransactionStatusResult[], receipts: Array<object | Error>) {
  const calls: string[] = [];
  const client = {
    token: {
      getTransactionStatus: async () => {
        calls.push('status');
        return statuses.length > 1 ? statuses.shift() : statuses[0];
      },
    },
    block: {
      getTransactionReceipt: async () => {
        calls.push('receipt');
        const next = receipts.length > 1 ? receipts.shift() : receipts[0];
        if (next instanceof Error) throw next;
        return next;
      },
    },
  } as unknown as ItpClient;
  return { client, calls };
}

const signal = new AbortController().signal;

describe('waitUntilFinal', () => {
  it("returns the token API's record once it is final, without reading a receipt", async () => {
    const final = record({ status: 'dropped', final: true, error: 'nonce reused' });
    const { client, calls } = fakeClient([final], [pending()]);
    expect(await waitUntilFinal(client, TX, { signal })).toEqual(final);
    expect(calls).toEqual(['status']);
  });

  it('settles a pending record as mined by the receipt, reporting each round before', async () => {
    const { client, calls } = fakeClient(
      [record()],
      [pending(), pending(), { status: 'success', blockNumber: 12 }],
    );
    const rounds: number[] = [];
    const result = await waitUntilFinal(client, TX, {
      signal,
      intervalMs: 1,
      onPoll: (status, round) => rounds.push(round) && expect(status.status).toBe('sent'),
    });
    expect(result).toEqual(record({ status: 'mined', final: true, blockNumber: 12 }));
    expect(rounds).toEqual([1, 2]);
    expect(calls).toEqual(['status', 'receipt', 'status', 'receipt', 'status', 'receipt']);
  });

  it('settles a reverted receipt as failed', async () => {
    const { client } = fakeClient([record()], [{ status: 'reverted', blockNumber: 4 }]);
    expect(await waitUntilFinal(client, TX, { signal })).toMatchObject({
      status: 'failed',
      final: true,
      blockNumber: 4,
      error: 'reverted (receipt status 0)',
    });
  });

  it('passes on other failures, and stops when the signal fires', async () => {
    const down = new ServiceUnavailableError('chain down', { source: 'service' });
    await expect(
      waitUntilFinal(fakeClient([record()], [down]).client, TX, { signal }),
    ).rejects.toBe(down);
    const controller = new AbortController();
    const waiting = waitUntilFinal(fakeClient([record()], [pending()]).client, TX, {
      signal: controller.signal,
      intervalMs: 60_000,
      onPoll: () => controller.abort(),
    });
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
  });
});
