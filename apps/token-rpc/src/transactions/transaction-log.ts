/** What kind of transaction token-rpc sent. */
export type TransactionKind =
  | 'transfer'
  | 'createToken'
  | 'erc20.transfer'
  | 'erc20.approve'
  | 'erc20.transferFrom'
  | 'devFunding';

/**
 * sending: signed and recorded, being broadcast; sent: the node accepted it; failed: the node
 * refused it (nothing was sent); unknown: no answer from the node (it may still be mined).
 */
export type TransactionStatus = 'sending' | 'sent' | 'failed' | 'unknown';

export interface TransactionEntry {
  hash: string;
  kind: TransactionKind;
  from: string;
  to: string | null;
  contractAddress: string | null;
  nonce: number;
  /** Wei, decimal string. */
  value: string;
  status: TransactionStatus;
  error: string | null;
  requestId: string | null;
  createdAt: number;
  updatedAt: number;
}

/** The durable record of every transaction (port). The SQL adapter is db/sql-transaction-log.ts. */
export interface TransactionLog {
  /** Recorded before the broadcast, so that a crash in between still leaves a trace. */
  recordSending(entry: Omit<TransactionEntry, 'status' | 'error' | 'updatedAt'>): Promise<void>;
  markOutcome(
    hash: string,
    status: Exclude<TransactionStatus, 'sending'>,
    error?: string,
  ): Promise<void>;
  find(hash: string): Promise<TransactionEntry | null>;
  listByAddress(from: string, limit: number): Promise<TransactionEntry[]>;
}
