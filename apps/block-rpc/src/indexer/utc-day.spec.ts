import { describe, expect, it } from '@jest/globals';
import { dayCount, daysInRange, utcDay } from './utc-day.js';

describe('utcDay', () => {
  it('is the UTC calendar day of a timestamp in seconds', () => {
    expect(utcDay(0)).toBe('1970-01-01');
    expect(utcDay(1_704_067_199)).toBe('2023-12-31');
    expect(utcDay(1_704_067_200)).toBe('2024-01-01');
  });

  it('files timestamps beyond year 9999 under its last day', () => {
    expect(utcDay(2 ** 60)).toBe('9999-12-31');
  });
});

describe('daysInRange / dayCount', () => {
  it('lists every day, both ends included, across months and leap days', () => {
    expect(daysInRange('2024-02-27', '2024-03-01')).toEqual([
      '2024-02-27',
      '2024-02-28',
      '2024-02-29',
      '2024-03-01',
    ]);
    expect(dayCount('2024-02-27', '2024-03-01')).toBe(4);
  });

  it('a single day is a range of one', () => {
    expect(daysInRange('2024-05-05', '2024-05-05')).toEqual(['2024-05-05']);
    expect(dayCount('2024-05-05', '2024-05-05')).toBe(1);
  });

  it('counts a whole leap year as 366 days', () => {
    expect(dayCount('2024-01-01', '2024-12-31')).toBe(366);
    expect(daysInRange('2024-01-01', '2024-12-31')).toHaveLength(366);
  });
});
