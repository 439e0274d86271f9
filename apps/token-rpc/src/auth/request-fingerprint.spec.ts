import { describe, expect, it } from '@jest/globals';
import { requestFingerprint } from './request-fingerprint.js';

const params = {
  from: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  to: '0x000000000000000000000000000000000000dEaD',
  amount: '1000',
  tempKey: 'a'.repeat(64),
  hashKey: 'b'.repeat(64),
  signature: `0x${'c'.repeat(130)}`,
};

describe('requestFingerprint', () => {
  it('is the same for the same method and params, whatever the member order', () => {
    const reordered = Object.fromEntries(Object.entries(params).reverse());
    expect(requestFingerprint('transfer', reordered)).toBe(requestFingerprint('transfer', params));
    expect(requestFingerprint('transfer', params)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('differs for another method, another value, another JSON type or another case', () => {
    const base = requestFingerprint('transfer', params);
    expect(requestFingerprint('erc20.transfer', params)).not.toBe(base);
    expect(requestFingerprint('transfer', { ...params, amount: '1001' })).not.toBe(base);
    expect(
      requestFingerprint('transfer', { ...params, signature: `0x${'d'.repeat(130)}` }),
    ).not.toBe(base);
    expect(requestFingerprint('transfer', { ...params, to: params.to.toLowerCase() })).not.toBe(
      base,
    );
    expect(requestFingerprint('createToken', { decimals: 18 })).not.toBe(
      requestFingerprint('createToken', { decimals: '18' }),
    );
  });

  it('holds no secret in clear', () => {
    const fingerprint = requestFingerprint('transfer', params);
    for (const value of [params.tempKey, params.hashKey, params.signature.slice(2)]) {
      expect(fingerprint).not.toContain(value.slice(0, 16));
    }
  });
});
