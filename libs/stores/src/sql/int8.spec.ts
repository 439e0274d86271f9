import { describe, expect, it } from '@jest/globals';
import { narrowBigint, parseInt8 } from './int8.js';

describe('parseInt8', () => {
  it('gives a number for safe integers and a bigint beyond 2^53', () => {
    expect(parseInt8('0')).toBe(0);
    expect(parseInt8('-42')).toBe(-42);
    expect(parseInt8('9007199254740991')).toBe(Number.MAX_SAFE_INTEGER);
    expect(parseInt8('-9007199254740991')).toBe(Number.MIN_SAFE_INTEGER);
    expect(parseInt8('9007199254740992')).toBe(9007199254740992n);
    expect(parseInt8('9223372036854775807')).toBe(9223372036854775807n);
    expect(parseInt8('-9223372036854775808')).toBe(-9223372036854775808n);
  });
});

describe('narrowBigint', () => {
  it('narrows exact values to numbers and keeps the others', () => {
    expect(narrowBigint(7n)).toBe(7);
    expect(narrowBigint(BigInt(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
    expect(narrowBigint(BigInt(Number.MAX_SAFE_INTEGER) + 1n)).toBe(2n ** 53n);
    expect(narrowBigint(BigInt(Number.MIN_SAFE_INTEGER) - 1n)).toBe(-(2n ** 53n));
  });
});
