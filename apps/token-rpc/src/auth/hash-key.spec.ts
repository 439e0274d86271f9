import { createHash } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { computeHashKey, hashKeyMatches } from './hash-key.js';

const tempKey = 'a'.repeat(64);
const secretKey = 'b'.repeat(64);
const expected = createHash('sha256').update(`${tempKey}|${secretKey}`).digest('hex');

describe('hashKey', () => {
  it('is the hex SHA-256 of "<tempKey>|<secretKey>"', () => {
    expect(computeHashKey(tempKey, secretKey)).toBe(expected);
  });

  it('matches in either case and with 0x', () => {
    expect(hashKeyMatches(expected, tempKey, secretKey)).toBe(true);
    expect(hashKeyMatches(expected.toUpperCase(), tempKey, secretKey)).toBe(true);
    expect(hashKeyMatches(`0x${expected}`, tempKey, secretKey)).toBe(true);
  });

  it('does not match another secretKey, another tempKey or a truncated value', () => {
    expect(hashKeyMatches(expected, tempKey, 'c'.repeat(64))).toBe(false);
    expect(hashKeyMatches(expected, 'd'.repeat(64), secretKey)).toBe(false);
    expect(hashKeyMatches(expected.slice(0, 63), tempKey, secretKey)).toBe(false);
  });
});
