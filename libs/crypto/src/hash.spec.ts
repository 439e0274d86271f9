import { describe, expect, it } from '@jest/globals';
import { constantTimeEqual, randomHex, sha256Hex } from './hash.js';
import { parseMasterKey } from './master-key.js';

describe('hash helpers', () => {
  it('sha256Hex matches the known vector', () => {
    expect(sha256Hex('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });

  it('randomHex gives the requested size and differs between calls', () => {
    expect(randomHex(16)).toMatch(/^[0-9a-f]{32}$/);
    expect(randomHex(16)).not.toBe(randomHex(16));
  });

  it('constantTimeEqual compares exactly', () => {
    expect(constantTimeEqual('abc', 'abc')).toBe(true);
    expect(constantTimeEqual('abc', 'abd')).toBe(false);
    expect(constantTimeEqual('abc', 'abcd')).toBe(false);
    expect(constantTimeEqual('', '')).toBe(true);
  });

  it('parseMasterKey accepts id:base64, bare base64 and hex', () => {
    const raw = Buffer.alloc(32, 7);
    expect(parseMasterKey(`main:${raw.toString('base64')}`)).toEqual({ id: 'main', key: raw });
    expect(parseMasterKey(raw.toString('base64')).id).toBe('k1');
    expect(parseMasterKey(raw.toString('hex')).key).toEqual(raw);
    expect(() => parseMasterKey('c2hvcnQ=')).toThrow(/32 bytes/);
  });
});
