import { InvalidParamsError } from '@itp/jsonrpc';
import type { GetTransactionStatsResult, StatsRange } from '@itp/schemas';
import type { BlockIndexStore } from '../indexer/block-index-store.js';
import { dayCount, daysInRange } from '../indexer/utc-day.js';

/**
 * getTransactionStats: transactions per UTC day (by block timestamp) from the SQL index, every
 * day of the range listed, both ends inclusive. Answers from what is indexed so far (see the
 * block_index_lag_blocks metric).
 */
export class StatsService {
  constructor(
    private readonly store: BlockIndexStore,
    private readonly maxDays: number,
  ) {}

  async transactionStats({ from, to }: StatsRange): Promise<GetTransactionStatsResult> {
    const days = dayCount(from, to);
    if (days > this.maxDays) {
      throw new InvalidParamsError('Invalid params', [
        {
          path: [0, 'to'],
          message: `the range spans ${days} days; at most ${this.maxDays} are allowed`,
        },
      ]);
    }
    const counts = await this.store.countByDay(from, to);
    const daily = daysInRange(from, to).map((date) => ({ date, count: counts.get(date) ?? 0 }));
    return { count: daily.reduce((sum, day) => sum + day.count, 0), daily };
  }
}
