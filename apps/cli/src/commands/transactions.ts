/**
 * `itp wallet transfer` (tempKey → hashKey → signData → transfer, done by the SDK) with `--wait`
 * until the transaction is final, and `itp tx status <transactionId>`.
 */
import { TimeoutError, type GetTransactionStatusResult } from '@itp/client';
import { FailedError, UsageError } from '../errors.js';
import { readSecret } from '../input/read-input.js';
import { keyValues } from '../output/table.js';
import type { Command, CommandContext, CommandResult } from './command.js';
import { formatEth, parseAmount } from './amount.js';
import { flag, optionalSeconds, optionalString, positionals, requiredString } from './values.js';

/** How long `--wait` waits by default. */
export const DEFAULT_WAIT_SECONDS = 120;

const WEI_KINDS = new Set(['transfer', 'devFunding']);

function statusText(status: GetTransactionStatusResult): string {
  const amount = WEI_KINDS.has(status.kind)
    ? `${status.amount} wei (${formatEth(status.amount)} ETH)`
    : status.amount;
  return keyValues({ ...status, amount }, [
    'transactionId',
    'kind',
    'status',
    'final',
    'from',
    'to',
    'amount',
    'blockNumber',
    'contractAddress',
    'nonce',
    'error',
    'createdAt',
    'updatedAt',
  ]);
}

/** A final status that is not `mined` is a failed run. */
function failureOf(status: GetTransactionStatusResult): FailedError | undefined {
  if (!status.final || status.status === 'mined') return undefined;
  const why = status.error ? `: ${status.error}` : '';
  return new FailedError(
    `transaction ${status.transactionId} ${status.status}${why}`,
    status.status,
  );
}

/** Waits until final, showing progress; a run out of time is a failure (exit 1). */
async function waitWithProgress(
  ctx: CommandContext,
  transactionId: string,
  seconds: number,
): Promise<GetTransactionStatusResult> {
  const progress = ctx.progress(`waiting for ${transactionId} to be mined`);
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), seconds * 1000);
  try {
    // The SDK's wait: the token API's record, completed by the block API's receipt.
    return await ctx.client.token.waitForTransaction(transactionId, {
      signal: deadline.signal,
      timeoutMs: seconds * 1000,
      onPoll: (status, round) =>
        progress.update(
          `waiting for ${transactionId} to be mined: ${status.status} (check ${round})`,
        ),
    });
  } catch (err) {
    if (deadline.signal.aborted || err instanceof TimeoutError) {
      throw new FailedError(
        `${transactionId} is not final after ${seconds} s; look again with: itp tx status ${transactionId}`,
        'NOT_FINAL',
      );
    }
    throw err;
  } finally {
    clearTimeout(timer);
    progress.stop();
  }
}

function statusResult(status: GetTransactionStatusResult): CommandResult {
  const failure = failureOf(status);
  return { json: status, text: statusText(status), ...(failure ? { failure } : {}) };
}

export const walletTransferCommand: Command = {
  words: ['wallet', 'transfer'],
  options: {
    from: { type: 'string' },
    to: { type: 'string' },
    amount: { type: 'string' },
    'secret-key': { type: 'string' },
    'secret-key-stdin': { type: 'boolean' },
    wait: { type: 'boolean' },
    timeout: { type: 'string' },
  },
  async run(ctx) {
    positionals(ctx, []);
    const from = requiredString(ctx.values, 'from');
    const to = requiredString(ctx.values, 'to');
    const amount = parseAmount(requiredString(ctx.values, 'amount'));
    const wait = flag(ctx.values, 'wait');
    const timeout = optionalSeconds(ctx.values, 'timeout');
    if (timeout !== undefined && !wait) throw new UsageError('--timeout goes with --wait');
    const secretKey = (await readSecret(
      'secret-key',
      optionalString(ctx.values, 'secret-key'),
      flag(ctx.values, 'secret-key-stdin'),
      ctx.stdin,
    )) as string;
    const sent = await ctx.client.token
      .wallet({ address: from, secretKey })
      .transfer({ to, amount });
    if (!wait) {
      return {
        json: sent,
        text: keyValues({ transactionId: sent.transactionId }),
        notice: `sent; follow it with: itp tx status ${sent.transactionId}`,
      };
    }
    const status = await waitWithProgress(ctx, sent.transactionId, timeout ?? DEFAULT_WAIT_SECONDS);
    return statusResult(status);
  },
};

export const txStatusCommand: Command = {
  words: ['tx', 'status'],
  options: {},
  async run(ctx) {
    const [transactionId] = positionals(ctx, ['transactionId']) as [string];
    return statusResult(await ctx.client.token.getTransactionStatus({ transactionId }));
  },
};
