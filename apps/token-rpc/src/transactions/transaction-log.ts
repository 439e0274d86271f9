import {
  PENDING_TRANSACTION_STATUSES,
  type PendingTransactionStatus,
  type TransactionKind,
  type TransactionStatus,
} from '@itp/schemas';

export type { PendingTransactionStatus, TransactionKind, TransactionStatus };

/**
 * The statuses of a record (the API's getTransactionStatus shows them as they are):
 * - sending: signed and recorded, being broadcast;
 * - sent: the node accepted it; unknown: no answer from the node (it may still be mined);
 * - failed: the node refused it (nothing was sent, no block), or it was mined and reverted
 *   (receipt status 0, with its block number);
 * - mined: in a block with receipt status 1; dropped: never mined, its nonce was used by another
 *   transaction.
 * sending, sent and unknown are not final: the reconciler settles them against the chain.
 */
export const FINAL_STATUSES: ReadonlySet<TransactionStatus> = new Set([
  'mined',
  'failed',
  'dropped',
]);

export function isPendingStatus(status: TransactionStatus): status is PendingTransactionStatus {
  return (PENDING_TRANSACTION_STATUSES as readonly string[]).includes(status);
}

export interface TransactionEntry {
  hash: string;
  kind: TransactionKind;
  from: string;
  to: string | null;
  contractAddress: string | null;
  nonce: number;
  /** Wei sent with the transaction, decimal string. */
  value: string;
  /** The amount of the request (wei, token base units, initial supply), decimal string. */
  amount: string;
  status: TransactionStatus;
  /** The block it was mined in (mined, or failed by a revert); else null. */
  blockNumber: number | null;
  error: string | null;
  requestId: string | null;
  createdAt: number;
  updatedAt: number;
}

/** The tempKey request a transaction was sent for (its durable identical-retry key). */
export interface RequestKey {
  /** SHA-256 (hex) of the tempKey: the tempKey itself is never stored. */
  tempKeyHash: string;
  fingerprint: string;
}

/** What the broadcast's answer makes of a `sending` record. */
export type SendOutcome = 'sent' | 'failed' | 'unknown';

/** What the chain makes of a record that is not final. */
export interface Settlement {
  status: 'mined' | 'failed' | 'dropped';
  blockNumber: number | null;
  error: string | null;
}

/** The durable record of every transaction (port). The SQL adapter is db/sql-transaction-log.ts. */
export interface TransactionLog {
  /** Recorded before the broadcast, so that a crash in between still leaves a trace. */
  recordSending(
    entry: Omit<TransactionEntry, 'status' | 'blockNumber' | 'error' | 'updatedAt'>,
    requestKey?: RequestKey,
  ): Promise<void>;
  /**
   * The transaction sent for a tempKey (by its SHA-256) and the fingerprint of the request that
   * sent it: the identical-retry answer when Redis no longer knows the tempKey.
   */
  findByTempKey(
    tempKeyHash: string,
  ): Promise<{ entry: TransactionEntry; fingerprint: string } | undefined>;
  /**
   * The broadcast's answer: applied only while the record is still `sending` (the reconciler may
   * have settled it meanwhile); false when it was not.
   */
  markOutcome(hash: string, status: SendOutcome, error?: string): Promise<boolean>;
  /**
   * Settles a record against the chain, only while it still has the status `from` (a conditional
   * UPDATE): several replicas may settle the same record, exactly one changes it. False when
   * another got there first.
   */
  settle(hash: string, from: PendingTransactionStatus, to: Settlement): Promise<boolean>;
  /**
   * Records that are not final and unchanged since `updatedBefore` (epoch ms), oldest first, at
   * most `limit`, after the `after` cursor (the last entry of the previous page).
   */
  listPending(options: {
    updatedBefore: number;
    limit: number;
    after?: { createdAt: number; hash: string };
  }): Promise<TransactionEntry[]>;
  find(hash: string): Promise<TransactionEntry | null>;
  listByAddress(from: string, limit: number): Promise<TransactionEntry[]>;
}
