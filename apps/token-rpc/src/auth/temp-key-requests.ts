import { sha256Hex } from '@itp/crypto';
import { isBaseError } from '@itp/errors';
import type { TransactionOutcome } from '@itp/jsonrpc';
import type { Logger } from '@itp/service-kit';
import { ReplayedResultError, TempKeyInProgressError, TempKeyRejectedError } from '../errors.js';
import type {
  StoredFailure,
  StoredOutcome,
  TempKeyBinding,
  TempKeyClaim,
  TempKeyStore,
} from './temp-key-store.js';
import type { TransactionEntry } from '../transactions/transaction-log.js';

export interface TempKeyRequestsOptions {
  tempKeys: TempKeyStore;
  logger: Logger;
  /** How long an identical retry waits for the first request's answer (then "409", retry). */
  waitMs: number;
  /** Between two looks at the first request's claim (default 50 ms, with jitter). */
  pollMs?: number;
  /** Where a tempKey's transaction is found when Redis no longer knows the tempKey. */
  sent?: SentForTempKey;
}

/** The durable side of identical retries: the transaction log (port). */
export interface SentForTempKey {
  findByTempKey(
    tempKeyHash: string,
  ): Promise<{ entry: TransactionEntry; fingerprint: string } | undefined>;
}

const UNKNOWN_MESSAGE =
  'tempKey is unknown, expired or already used: get a new one with net_getTempKey';
const USED_BY_OTHER_MESSAGE =
  'tempKey was already used by another request (only an identical retry, with the same params ' +
  'and signature, gets its answer): get a new one with net_getTempKey';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs a transaction request at most once per tempKey (docs/api.md §4): the first request claims the
 * tempKey and runs; an identical retry (same tempKey, same fingerprint) gets the first one's
 * answer — the same TransactionID, or the same service error — waiting up to `waitMs` while the
 * first is still running (concurrent retries); any other request with a used tempKey is "409".
 */
export class TempKeyRequests {
  constructor(private readonly options: TempKeyRequestsOptions) {}

  async runOnce(
    tempKey: string,
    fingerprint: string,
    run: (binding: TempKeyBinding) => Promise<TransactionOutcome<string>>,
  ): Promise<TransactionOutcome<string>> {
    const { tempKeys, waitMs } = this.options;
    const pollMs = this.options.pollMs ?? 50;
    const deadline = Date.now() + waitMs;
    for (;;) {
      const claim: TempKeyClaim = await tempKeys.claim(tempKey, fingerprint);
      switch (claim.state) {
        case 'claimed':
          return this.runClaimed(tempKey, claim.marker, () => run(claim.binding));
        case 'answered':
          return replay(claim.outcome, claim.failure);
        case 'missing':
          return this.fromTransactionLog(tempKey, fingerprint);
        case 'usedByOther':
          throw new TempKeyRejectedError(USED_BY_OTHER_MESSAGE);
        case 'inProgress':
          if (Date.now() >= deadline) throw new TempKeyInProgressError();
          await sleep(pollMs / 2 + Math.random() * pollMs);
      }
    }
  }

  /**
   * Redis does not know the tempKey (never issued, expired, or lost when Redis restarted empty):
   * if a transaction was sent with it, an identical request gets its answer and any other "409".
   */
  private async fromTransactionLog(
    tempKey: string,
    fingerprint: string,
  ): Promise<TransactionOutcome<string>> {
    const found = await this.options.sent?.findByTempKey(sha256Hex(tempKey));
    if (!found) throw new TempKeyRejectedError(UNKNOWN_MESSAGE);
    if (found.fingerprint !== fingerprint) throw new TempKeyRejectedError(USED_BY_OTHER_MESSAGE);
    const { entry } = found;
    return {
      transactionId: entry.hash,
      resultData: entry.kind === 'createToken' ? (entry.contractAddress ?? entry.hash) : entry.hash,
    };
  }

  private async runClaimed(
    tempKey: string,
    marker: string,
    run: () => Promise<TransactionOutcome<string>>,
  ): Promise<TransactionOutcome<string>> {
    let outcome: TransactionOutcome<string>;
    try {
      outcome = await run();
    } catch (err) {
      await this.keep(tempKey, marker, { failure: failureOf(err) });
      throw err;
    }
    await this.keep(tempKey, marker, {
      outcome: { transactionId: outcome.transactionId, resultData: outcome.resultData },
    });
    return outcome;
  }

  /** Best effort: the caller gets its answer even when Redis fails to keep it for retries. */
  private async keep(
    tempKey: string,
    marker: string,
    result: { outcome: StoredOutcome } | { failure: StoredFailure },
  ): Promise<void> {
    try {
      if (!(await this.options.tempKeys.answer(tempKey, marker, result))) {
        this.options.logger.warn('the answer of a transaction request outlived its tempKey claim');
      }
    } catch (err) {
      this.options.logger.warn(
        { err },
        'the answer of a transaction request could not be kept for identical retries',
      );
    }
  }
}

function failureOf(err: unknown): StoredFailure {
  if (isBaseError(err)) return { code: err.code, message: err.message, expose: err.expose };
  return { code: '500', message: 'internal failure', expose: false };
}

function replay(
  outcome: StoredOutcome | undefined,
  failure: StoredFailure | undefined,
): TransactionOutcome<string> {
  if (outcome) return { transactionId: outcome.transactionId, resultData: outcome.resultData };
  if (failure) throw new ReplayedResultError(failure.code, failure.message, failure.expose);
  throw new TempKeyRejectedError(UNKNOWN_MESSAGE);
}
