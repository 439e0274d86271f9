import type { Kysely, Transaction } from 'kysely';
import type { BlockDb } from '../db/block-db.js';
import { LeaseLostError } from './lease-lost-error.js';
import { utcDay } from './utc-day.js';

/** What the index keeps of one block. */
export interface IndexedBlock {
  number: number;
  hash: string;
  parentHash: string;
  /** Seconds. */
  timestamp: number;
  txCount: number;
}

export interface BlockRef {
  number: number;
  hash: string;
}

/** Who writes, and for how long a successful write extends the lease. */
export interface LeaseHolder {
  holder: string;
  ttlMs: number;
  now: number;
}

/**
 * The SQL side of the transaction index. Every write runs in one transaction that first renews
 * the writer's lease row (UPDATE … WHERE holder = me): a replica that lost the lease writes
 * nothing, and on PostgreSQL the row lock serialises writers until commit. Rows are upserted by
 * block number, so repeating a write is harmless.
 */
export class BlockIndexStore {
  constructor(
    private readonly db: Kysely<BlockDb>,
    private readonly leaseName = 'indexer',
  ) {}

  async tip(): Promise<BlockRef | undefined> {
    return this.edge('desc');
  }

  async lowest(): Promise<BlockRef | undefined> {
    return this.edge('asc');
  }

  async hashAt(number: number): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('block_index')
      .select('hash')
      .where('number', '=', number)
      .executeTakeFirst();
    return row?.hash;
  }

  /** Takes the lease when it is free, expired or already ours; true when we hold it now. */
  async acquireLease({ holder, ttlMs, now }: LeaseHolder): Promise<boolean> {
    await this.db
      .insertInto('block_index_lease')
      .values({ name: this.leaseName, holder, expires_at: now + ttlMs })
      .onConflict((oc) =>
        oc
          .column('name')
          .doUpdateSet({ holder, expires_at: now + ttlMs })
          .where((eb) =>
            eb.or([
              eb('block_index_lease.holder', '=', holder),
              eb('block_index_lease.expires_at', '<', now),
            ]),
          ),
      )
      .execute();
    const row = await this.db
      .selectFrom('block_index_lease')
      .select('holder')
      .where('name', '=', this.leaseName)
      .executeTakeFirst();
    return row?.holder === holder;
  }

  /** Gives the lease up (on shutdown) so that another replica takes over at once. */
  async releaseLease(holder: string): Promise<void> {
    await this.db
      .deleteFrom('block_index_lease')
      .where('name', '=', this.leaseName)
      .where('holder', '=', holder)
      .execute();
  }

  /**
   * Records consecutive blocks. Returns 'reorg' (and writes nothing) when the first block's
   * parent is not the stored block before it.
   */
  async append(lease: LeaseHolder, blocks: readonly IndexedBlock[]): Promise<'ok' | 'reorg'> {
    const first = blocks[0];
    if (!first) return 'ok';
    return this.db.transaction().execute(async (trx) => {
      await this.renew(trx, lease);
      const before = await trx
        .selectFrom('block_index')
        .select('hash')
        .where('number', '=', first.number - 1)
        .executeTakeFirst();
      if (before && before.hash !== first.parentHash) return 'reorg';
      await trx
        .insertInto('block_index')
        .values(
          blocks.map((b) => ({
            number: b.number,
            hash: b.hash,
            parent_hash: b.parentHash,
            timestamp: b.timestamp,
            day: utcDay(b.timestamp),
            tx_count: b.txCount,
          })),
        )
        .onConflict((oc) =>
          oc.column('number').doUpdateSet((eb) => ({
            hash: eb.ref('excluded.hash'),
            parent_hash: eb.ref('excluded.parent_hash'),
            timestamp: eb.ref('excluded.timestamp'),
            day: eb.ref('excluded.day'),
            tx_count: eb.ref('excluded.tx_count'),
          })),
        )
        .execute();
      return 'ok';
    });
  }

  /** Deletes every stored block above `number` (all of them for -1); returns how many. */
  async deleteAbove(lease: LeaseHolder, number: number): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      await this.renew(trx, lease);
      const result = await trx.deleteFrom('block_index').where('number', '>', number).execute();
      return Number(result[0]?.numDeletedRows ?? 0n);
    });
  }

  /** Transactions per UTC day within [from, to] (days without indexed blocks are absent). */
  async countByDay(from: string, to: string): Promise<Map<string, number>> {
    const rows = await this.db
      .selectFrom('block_index')
      .select((eb) => ['day', eb.fn.sum<number | string>('tx_count').as('count')])
      .where('day', '>=', from)
      .where('day', '<=', to)
      .groupBy('day')
      .execute();
    return new Map(rows.map((row) => [row.day, Number(row.count)]));
  }

  private async edge(order: 'asc' | 'desc'): Promise<BlockRef | undefined> {
    const row = await this.db
      .selectFrom('block_index')
      .select(['number', 'hash'])
      .orderBy('number', order)
      .limit(1)
      .executeTakeFirst();
    return row ? { number: Number(row.number), hash: row.hash } : undefined;
  }

  private async renew(trx: Transaction<BlockDb>, { holder, ttlMs, now }: LeaseHolder) {
    const result = await trx
      .updateTable('block_index_lease')
      .set({ expires_at: now + ttlMs })
      .where('name', '=', this.leaseName)
      .where('holder', '=', holder)
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) throw new LeaseLostError();
  }
}
