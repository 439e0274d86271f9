import { z } from 'zod';
import { isoDay, uint } from './primitives.js';

/** The day range of getTransactionStats: UTC days, both ends inclusive, from ≤ to. */
export const statsRangeSchema = z
  .strictObject({
    from: isoDay.meta({ description: 'first UTC day, inclusive (YYYY-MM-DD)' }),
    to: isoDay.meta({ description: 'last UTC day, inclusive (YYYY-MM-DD)' }),
  })
  .refine((range) => range.from <= range.to, {
    path: ['to'],
    message: 'must not be before from',
  })
  .meta({
    title: 'range',
    description:
      'UTC days, both inclusive, from ≤ to, at most STATS_MAX_DAYS days (366 by default)',
  });
export type StatsRange = z.infer<typeof statsRangeSchema>;

/** getTransactionStats params: `[{ from, to }]`. */
export const getTransactionStatsParamsSchema = z
  .tuple([statsRangeSchema])
  .meta({ title: 'GetTransactionStatsParams' });
export type GetTransactionStatsParams = z.infer<typeof getTransactionStatsParamsSchema>;

export const dailyCountSchema = z.object({
  date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .meta({ description: 'UTC day YYYY-MM-DD' }),
  count: uint.meta({ description: 'transactions in blocks whose timestamp falls on that day' }),
});
export type DailyCount = z.infer<typeof dailyCountSchema>;

export const getTransactionStatsResultSchema = z
  .object({
    count: uint.meta({ description: 'transactions in the whole range' }),
    daily: z
      .array(dailyCountSchema)
      .meta({ description: 'every day of the range in order, days without transactions as 0' }),
  })
  .meta({ title: 'GetTransactionStatsResult' });
export type GetTransactionStatsResult = z.infer<typeof getTransactionStatsResultSchema>;
