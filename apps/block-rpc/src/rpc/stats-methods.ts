import { defineMethod } from '@itp/jsonrpc';
import {
  BLOCK_SERVICE_ERRORS,
  getTransactionStatsParamsSchema,
  getTransactionStatsResultSchema,
} from '@itp/schemas';
import type { StatsService } from '../stats/stats-service.js';

export function getTransactionStatsMethod(stats: StatsService, maxDays: number) {
  return defineMethod({
    name: 'getTransactionStats',
    summary: 'Transactions per UTC day over a range of days',
    description: `params: [{ from: "YYYY-MM-DD", to: "YYYY-MM-DD" }], both days inclusive, from ≤ to, at most ${maxDays} days. A transaction counts on the UTC day of its block's timestamp. Every day of the range is listed (0 when none). Counts come from the service's index of the chain, which follows the head (reorganisations included) with a small delay.`,
    paramsStyle: 'positional',
    params: getTransactionStatsParamsSchema,
    result: getTransactionStatsResultSchema,
    errors: [BLOCK_SERVICE_ERRORS.rateLimited, { resultCode: '500', when: 'the database failed' }],
    examples: [
      {
        name: 'two days',
        params: [{ from: '2026-01-01', to: '2026-01-02' }],
        result: {
          count: 0,
          daily: [
            { date: '2026-01-01', count: 0 },
            { date: '2026-01-02', count: 0 },
          ],
        },
      },
    ],
    handler: ([range]) => stats.transactionStats(range),
  });
}
