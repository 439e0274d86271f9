import { PENDING_TRANSACTION_STATUSES } from '@itp/schemas';
import type { TokenSqlDatabase, TokenTransactionsTable } from './database.js';
import { sqlCall } from './sql-errors.js';
import type {
  PendingTransactionStatus,
  RequestKey,
  SendOutcome,
  Settlement,
  TransactionEntry,
  TransactionKind,
  TransactionLog,
  TransactionStatus,
} from '../transactions/transaction-log.js';

const MAX_ERROR_LENGTH = 1000;

function toEntry(row: TokenTransactionsTable): TransactionEntry {
  return {
    hash: row.hash,
    kind: row.kind as TransactionKind,
    from: row.from_address,
    to: row.to_address,
    contractAddress: row.contract_address,
    nonce: Number(row.nonce),
    value: row.value,
    amount: row.amount ?? row.value,
    status: row.status as TransactionStatus,
    blockNumber: row.block_number === null ? null : Number(row.block_number),
    error: row.error,
    requestId: row.request_id,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

const errorText = (error: string | null | undefined) =>
  error === undefined || error === null ? null : error.slice(0, MAX_ERROR_LENGTH);

/**
 * The transaction record in `token_transactions`. Every status change is a conditional UPDATE
 * (`WHERE status = <the status it leaves>`), so the request that sends a transaction and any
 * number of reconcilers (one per replica) never overwrite each other. Database failures become
 * "503" / "500" (db/sql-errors.ts).
 */
export class SqlTransactionLog implements TransactionLog {
  constructor(
    private readonly database: TokenSqlDatabase,
    private readonly now: () => number = Date.now,
  ) {}

  recordSending(
    entry: Omit<TransactionEntry, 'status' | 'blockNumber' | 'error' | 'updatedAt'>,
    requestKey?: RequestKey,
  ): Promise<void> {
    return sqlCall('record a transaction', async () => {
      await this.database.db
        .insertInto('token_transactions')
        .values({
          hash: entry.hash,
          kind: entry.kind,
          from_address: entry.from,
          to_address: entry.to,
          contract_address: entry.contractAddress,
          nonce: entry.nonce,
          value: entry.value,
          amount: entry.amount,
          status: 'sending',
          block_number: null,
          error: null,
          request_id: entry.requestId,
          temp_key_hash: requestKey?.tempKeyHash ?? null,
          request_fingerprint: requestKey?.fingerprint ?? null,
          created_at: entry.createdAt,
          updated_at: entry.createdAt,
        })
        .execute();
    });
  }

  markOutcome(hash: string, status: SendOutcome, error?: string): Promise<boolean> {
    return sqlCall('record a transaction outcome', async () => {
      const result = await this.database.db
        .updateTable('token_transactions')
        .set({ status, error: errorText(error), updated_at: this.now() })
        .where('hash', '=', hash)
        .where('status', '=', 'sending')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    });
  }

  settle(hash: string, from: PendingTransactionStatus, to: Settlement): Promise<boolean> {
    return sqlCall('settle a transaction', async () => {
      const result = await this.database.db
        .updateTable('token_transactions')
        .set({
          status: to.status,
          block_number: to.blockNumber,
          error: errorText(to.error),
          updated_at: this.now(),
        })
        .where('hash', '=', hash)
        .where('status', '=', from)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    });
  }

  listPending(options: {
    updatedBefore: number;
    limit: number;
    after?: { createdAt: number; hash: string };
  }): Promise<TransactionEntry[]> {
    return sqlCall('list pending transactions', async () => {
      let query = this.database.db
        .selectFrom('token_transactions')
        .selectAll()
        .where('status', 'in', [...PENDING_TRANSACTION_STATUSES])
        .where('updated_at', '<=', options.updatedBefore);
      const after = options.after;
      if (after) {
        query = query.where((eb) =>
          eb.or([
            eb('created_at', '>', after.createdAt),
            eb.and([eb('created_at', '=', after.createdAt), eb('hash', '>', after.hash)]),
          ]),
        );
      }
      const rows = await query
        .orderBy('created_at', 'asc')
        .orderBy('hash', 'asc')
        .limit(options.limit)
        .execute();
      return rows.map(toEntry);
    });
  }

  find(hash: string): Promise<TransactionEntry | null> {
    return sqlCall('find a transaction', async () => {
      const row = await this.database.db
        .selectFrom('token_transactions')
        .selectAll()
        .where('hash', '=', hash)
        .executeTakeFirst();
      return row ? toEntry(row) : null;
    });
  }

  findByTempKey(
    tempKeyHash: string,
  ): Promise<{ entry: TransactionEntry; fingerprint: string } | undefined> {
    return sqlCall('find a transaction by tempKey', async () => {
      const row = await this.database.db
        .selectFrom('token_transactions')
        .selectAll()
        .where('temp_key_hash', '=', tempKeyHash)
        .orderBy('created_at', 'asc')
        .executeTakeFirst();
      if (!row || !row.request_fingerprint) return undefined;
      return { entry: toEntry(row), fingerprint: row.request_fingerprint };
    });
  }

  listByAddress(from: string, limit: number): Promise<TransactionEntry[]> {
    return sqlCall('list transactions', async () => {
      const rows = await this.database.db
        .selectFrom('token_transactions')
        .selectAll()
        .where('from_address', '=', from)
        .orderBy('created_at', 'desc')
        .orderBy('nonce', 'desc')
        .limit(limit)
        .execute();
      return rows.map(toEntry);
    });
  }
}
