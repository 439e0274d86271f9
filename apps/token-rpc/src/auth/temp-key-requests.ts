import { constantTimeEqual, sha256Hex } from '@itp/crypto';
import { isBaseError } from '@itp/errors';
import type { TransactionOutcome } from '@itp/jsonrpc';
import type { Logger } from '@itp/service-kit';
import {
  ReplayedResultError,
  TempKeyAlreadySentError,
  TempKeyInProgressError,
  TempKeyRejectedError,
} from '../errors.js';
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
  /**
   * The transaction log: what decides whether a tempKey was used (its unique temp_key_hash).
   * Asked before a claimed request runs, and when Redis no longer knows the tempKey.
   */
  sent?: SentForTempKey;
}

/** A transaction the log holds for a tempKey, and the fingerprint of the request that sent it. */
export interface RecordedForTempKey {
  entry: TransactionEntry;
  fingerprint: string;
}

/** The durable side of the tempKey rule: the transaction log (port). */
export interface SentForTempKey {
  findByTempKey(tempKeyHash: string): Promise<RecordedForTempKey | undefined>;
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
 *
 * Redis is the fast path and coordinates requests in progress; the transaction log decides
 * (ADR 0011, "SQL decides the tempKey"). Redis may go back in time (a restore, a failover to a
 * replica that lagged) and offer a used tempKey as unused again: so a request that claimed it is
 * run only when the log holds no transaction for the tempKey, and the log's unique
 * `temp_key_hash` stops two requests that got past that look at once (TempKeyAlreadySentError,
 * before anything is sent). Either way the answer comes from the log's record: an identical
 * request gets the original TransactionID, any other "409".
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
          return this.runClaimed(tempKey, fingerprint, claim.marker, () => run(claim.binding));
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
    return answerOf(found, fingerprint);
  }

  /**
   * This request claimed the tempKey in Redis. Before anything is signed or sent, the log is asked
   * whether a transaction was already sent with it (Redis went back in time); only when none was
   * does the request run. Its answer (or failure) is kept in Redis for identical retries.
   */
  private async runClaimed(
    tempKey: string,
    fingerprint: string,
    marker: string,
    run: () => Promise<TransactionOutcome<string>>,
  ): Promise<TransactionOutcome<string>> {
    let recorded: RecordedForTempKey | undefined;
    let outcome: TransactionOutcome<string> | undefined;
    try {
      recorded = await this.options.sent?.findByTempKey(sha256Hex(tempKey));
      if (!recorded) {
        this.options.logger.trace('tempKey claimed, no transaction in the log for it: running');
        outcome = await run();
      }
    } catch (err) {
      // Two requests got past Redis with this tempKey: the other one's record is in the log.
      if (!(err instanceof TempKeyAlreadySentError)) {
        await this.keep(tempKey, marker, { failure: failureOf(err) });
        throw err;
      }
      recorded = err.recorded;
    }
    if (recorded) return this.fromRecord(tempKey, fingerprint, marker, recorded);
    const done = outcome as TransactionOutcome<string>;
    await this.keep(tempKey, marker, {
      outcome: { transactionId: done.transactionId, resultData: done.resultData },
    });
    return done;
  }

  /**
   * Redis offered a tempKey the log shows as used: the log's record answers, and Redis gets the
   * record's fingerprint and answer back in place of this request's claim (so that later retries
   * take the fast path again, and the original request's identical retry is not refused).
   */
  private async fromRecord(
    tempKey: string,
    fingerprint: string,
    marker: string,
    recorded: RecordedForTempKey,
  ): Promise<TransactionOutcome<string>> {
    this.options.logger.warn(
      { transactionId: recorded.entry.hash, identical: recorded.fingerprint === fingerprint },
      'Redis offered a tempKey the transaction log shows as used (Redis went back in time?): ' +
        'answered from the log, nothing sent',
    );
    const original = outcomeOf(recorded.entry);
    try {
      await this.options.tempKeys.restoreAnswer(tempKey, marker, {
        fingerprint: recorded.fingerprint,
        outcome: original,
      });
    } catch (err) {
      this.options.logger.warn(
        { err },
        'the answer of the transaction log could not be put back into Redis',
      );
    }
    return answerOf(recorded, fingerprint);
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

/** The answer a recorded transaction gives: its TransactionID, and for createToken its contract. */
function outcomeOf(entry: TransactionEntry): StoredOutcome {
  return {
    transactionId: entry.hash,
    resultData: entry.kind === 'createToken' ? (entry.contractAddress ?? entry.hash) : entry.hash,
  };
}

/** An identical request (same fingerprint) gets the record's answer; any other "409". */
function answerOf(recorded: RecordedForTempKey, fingerprint: string): TransactionOutcome<string> {
  if (!constantTimeEqual(recorded.fingerprint, fingerprint)) {
    throw new TempKeyRejectedError(USED_BY_OTHER_MESSAGE);
  }
  return outcomeOf(recorded.entry);
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
