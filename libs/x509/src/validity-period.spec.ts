import { describe, expect, it } from '@jest/globals';
import { BACKDATE_MS, validityPeriod } from './validity-period.js';

describe('validityPeriod', () => {
  it('starts a few minutes before now and ends the given days after now', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    expect(validityPeriod(2, now)).toEqual({
      notBefore: new Date(now.getTime() - BACKDATE_MS),
      notAfter: new Date('2026-01-03T00:00:00Z'),
    });
  });

  it('refuses zero, negative and non-finite days', () => {
    for (const days of [0, -1, Infinity, NaN])
      expect(() => validityPeriod(days)).toThrow(RangeError);
  });
});
