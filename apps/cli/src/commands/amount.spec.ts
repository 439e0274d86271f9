import { describe, expect, it } from '@jest/globals';
import { UsageError } from '../errors.js';
import { formatEth, parseAmount } from './amount.js';

describe('parseAmount', () => {
  it('takes wei as a whole number', () => {
    expect(parseAmount('1000')).toBe('1000');
    expect(parseAmount('0')).toBe('0');
  });

  it('converts a number with a unit to wei, exactly', () => {
    expect(parseAmount('1eth')).toBe('1000000000000000000');
    expect(parseAmount('1.5ETH')).toBe('1500000000000000000');
    expect(parseAmount('0.000000000000000001eth')).toBe('1');
    expect(parseAmount('20gwei')).toBe('20000000000');
    expect(parseAmount('7 wei')).toBe('7');
    expect(parseAmount('123456789012345678901234567890')).toBe('123456789012345678901234567890');
  });

  it('refuses what is not an amount, and more decimals than the unit has', () => {
    for (const bad of ['', '-1', '1e18', '0x10', '1.5', 'eth', '1 btc', '1,5eth']) {
      expect(() => parseAmount(bad)).toThrow(UsageError);
    }
    expect(() => parseAmount('1.0000000001gwei')).toThrow(/more decimals than gwei allows/);
    expect(parseAmount('1.000000000gwei')).toBe('1000000000');
  });
});

describe('formatEth', () => {
  it('shows wei as ETH without trailing zeros', () => {
    expect(formatEth('10000000000000000000')).toBe('10');
    expect(formatEth('1500000000000000000')).toBe('1.5');
    expect(formatEth('1')).toBe('0.000000000000000001');
    expect(formatEth('0')).toBe('0');
    expect(formatEth('9999979000000000000')).toBe('9.999979');
  });

  it('leaves what is not a wei amount as it is', () => {
    expect(formatEth('n/a')).toBe('n/a');
  });
});
