import type { TokenSqlDatabase, TokenTransactionsTable } from './database.js';
import type {
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
    status: row.status as TransactionStatus,
    error: row.error,
    requestId: row.request_id,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

/** The transaction record in `token_transactions`. */
export class SqlTransactionLog implements TransactionLog {
  constructor(
    private readonly database: TokenSqlDatabase,
    private readonly now: () => number = Date.now,
  ) {}

  async recordSending(
    entry: Omit<TransactionEntry, 'status' | 'error' | 'updatedAt'>,
  ): Promise<void> {
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
        status: 'sending',
        error: null,
        request_id: entry.requestId,
        created_at: entry.createdAt,
        updated_at: entry.createdAt,
      })
      .execute();
  }

  async markOutcome(
    hash: string,
    status: Exclude<TransactionStatus, 'sending'>,
    error?: string,
  ): Promise<void> {
    await this.database.db
      .updateTable('token_transactions')
      .set({
        status,
        error: error === undefined ? null : error.slice(0, MAX_ERROR_LENGTH),
        updated_at: this.now(),
      })
      .where('hash', '=', hash)
      .execute();
  }

  async find(hash: string): Promise<TransactionEntry | null> {
    const row = await this.database.db
      .selectFrom('token_transactions')
      .selectAll()
      .where('hash', '=', hash)
      .executeTakeFirst();
    return row ? toEntry(row) : null;
  }

  async listByAddress(from: string, limit: number): Promise<TransactionEntry[]> {
    const rows = await this.database.db
      .selectFrom('token_transactions')
      .selectAll()
      .where('from_address', '=', from)
      .orderBy('created_at', 'desc')
      .orderBy('nonce', 'desc')
      .limit(limit)
      .execute();
    return rows.map(toEntry);
  }
}
