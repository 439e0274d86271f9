import { describe, expect, it } from '@jest/globals';
import { getTransactionStatsParamsSchema } from './get-transaction-stats.js';
import { isRealDay } from './primitives.js';

describe('getTransactionStatsParamsSchema', () => {
  it.each([
    [[{ from: '2024-01-01', to: '2024-01-01' }]],
    [[{ from: '2024-02-28', to: '2024-03-01' }]],
    [[{ from: '2024-02-29', to: '2024-02-29' }]],
    [[{ from: '1970-01-01', to: '9999-12-31' }]],
  ])('accepts %j', (params) => {
    expect(getTransactionStatsParamsSchema.safeParse(params).success).toBe(true);
  });

  it.each<[unknown, string]>([
    [[], 'no range'],
    [[{ from: '2024-01-02', to: '2024-01-01' }], 'to before from'],
    [[{ from: '2023-02-29', to: '2023-03-01' }], 'no 29 February in 2023'],
    [[{ from: '2024-13-01', to: '2024-13-02' }], 'month 13'],
    [[{ from: '2024-1-1', to: '2024-01-02' }], 'not zero-padded'],
    [[{ from: '2024-01-01T00:00:00Z', to: '2024-01-02' }], 'a timestamp'],
    [[{ from: '1969-12-31', to: '1970-01-01' }], 'before 1970'],
    [[{ from: '2024-01-01' }], 'to missing'],
    [[{ from: 20240101, to: 20240102 }], 'numbers'],
    [[{ from: '2024-01-01', to: '2024-01-02', tz: 'UTC' }], 'an unknown key'],
    [[{ from: '2024-01-01', to: '2024-01-02' }, {}], 'a second element'],
    [['2024-01-01', '2024-01-02'], 'two strings'],
  ])('refuses %j (%s)', (params) => {
    expect(getTransactionStatsParamsSchema.safeParse(params).success).toBe(false);
  });

  it('names the field that is wrong', () => {
    const parsed = getTransactionStatsParamsSchema.safeParse([
      { from: '2024-01-05', to: '2024-01-01' },
    ]);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual([0, 'to']);
  });
});

describe('isRealDay', () => {
  it('knows leap years and month lengths', () => {
    expect(isRealDay('2000-02-29')).toBe(true);
    expect(isRealDay('1900-02-29')).toBe(false);
    expect(isRealDay('2024-04-31')).toBe(false);
    expect(isRealDay('2024-12-31')).toBe(true);
  });
});
