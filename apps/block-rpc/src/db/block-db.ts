import type { ColumnType } from 'kysely';

/**
 * The block API's tables (all named block_*). 64-bit columns come back as numbers (the stores
 * lib narrows exact int8 values); Number() guards the few aggregates anyway.
 */
export interface BlockIndexTable {
  /** Block number (primary key). */
  number: ColumnType<number, number, number>;
  hash: string;
  parent_hash: string;
  /** Block timestamp, seconds. */
  timestamp: ColumnType<number, number, number>;
  /** UTC day of the timestamp, YYYY-MM-DD. */
  day: string;
  tx_count: number;
}

/** One row per lease name: which indexer replica may write, until when (ms since epoch). */
export interface IndexLeaseTable {
  name: string;
  holder: string;
  expires_at: ColumnType<number, number, number>;
}

export interface BlockDb {
  block_index: BlockIndexTable;
  block_index_lease: IndexLeaseTable;
}
