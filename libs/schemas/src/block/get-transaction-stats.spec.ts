import { describe, expect, it } from '@jest/globals';
import { getTransactionStatsParamsSchema } from './get-transaction-stats.js';
import { REAL_DAY, isRealDay } from './primitives.js';

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

describe('REAL_DAY (the JSON Schema pattern of a day)', () => {
  it('accepts exactly the days isRealDay accepts, leap years included', () => {
    const pad = (n: number, width: number) => String(n).padStart(width, '0');
    const years = [
      ...Array.from({ length: 140 }, (_, i) => 1960 + i),
      2100,
      2200,
      2400,
      2800,
      3000,
      9600,
      9996,
      9999,
    ];
    // Every disagreement, collected and compared once: one expect per text (68,376 of them) took
    // most of this spec's time, for the same verdict.
    const disagreements: Array<{ text: string; pattern: boolean; isRealDay: boolean }> = [];
    let checked = 0;
    for (const year of years) {
      for (let month = 0; month <= 13; month += 1) {
        for (let day = 0; day <= 32; day += 1) {
          const text = `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
          const pattern = REAL_DAY.test(text);
          const real = isRealDay(text);
          if (pattern !== real) disagreements.push({ text, pattern, isRealDay: real });
          checked += 1;
        }
      }
    }
    expect(disagreements).toEqual([]);
    expect(checked).toBe(years.length * 14 * 33);
    expect(REAL_DAY.test('2024-02-29')).toBe(true);
    expect(REAL_DAY.test('2100-02-29')).toBe(false);
  });
});
