import { describe, expect, it } from '@jest/globals';
import {
  addressParam,
  amountParam,
  hash32Param,
  hashKeyParam,
  keyTypeParam,
  tempKeyParam,
} from './primitives.js';
import { createTokenParamsSchema } from './create-token.js';

const issues = (
  schema: {
    safeParse(v: unknown): { success: boolean; error?: { issues: Array<{ message: string }> } };
  },
  value: unknown,
) => schema.safeParse(value).error?.issues.map((i) => i.message) ?? [];

describe('token API primitives', () => {
  it('addresses: any case, or a valid EIP-55 checksum; one clear message each', () => {
    expect(addressParam.safeParse('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266').success).toBe(true);
    expect(addressParam.safeParse('0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266').success).toBe(true);
    expect(issues(addressParam, '0xF39Fd6e51aad88F6F4ce6aB8827279cffFb92266')).toEqual([
      'has a wrong EIP-55 checksum (mixed-case address)',
    ]);
    expect(issues(addressParam, '0x1234')).toEqual(['must be a 0x-prefixed 20-byte hex address']);
  });

  it('amounts: decimal strings 0 … 2^256-1, never a throw', () => {
    for (const ok of ['0', '1', ((1n << 256n) - 1n).toString()])
      expect(amountParam.safeParse(ok).success).toBe(true);
    for (const bad of ['1.5', '-1', '01', '', '1e3', (1n << 256n).toString(), 5]) {
      expect(amountParam.safeParse(bad).success).toBe(false);
    }
  });

  it('tempKey, hashKey, hash and keyType formats', () => {
    expect(tempKeyParam.safeParse('a'.repeat(64)).success).toBe(true);
    expect(tempKeyParam.safeParse('A'.repeat(64)).success).toBe(false);
    expect(hashKeyParam.safeParse(`0x${'A'.repeat(64)}`).success).toBe(true);
    expect(hash32Param.safeParse('b'.repeat(64)).success).toBe(true);
    expect(hash32Param.safeParse('b'.repeat(63)).success).toBe(false);
    expect(keyTypeParam.safeParse('erc20').success).toBe(true);
    expect(issues(keyTypeParam, 'x')).toEqual(['must be one of transfer, createToken, erc20']);
  });

  it('createToken: decimals 0-255 as number or string, names without "|"', () => {
    const base = {
      from: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
      name: 'Token',
      symbol: 'TOK',
      decimals: 18,
      initialSupply: '1000',
      tempKey: 'a'.repeat(64),
      hashKey: 'b'.repeat(64),
      signature: `0x${'c'.repeat(130)}`,
    };
    expect(createTokenParamsSchema.safeParse(base).success).toBe(true);
    expect(createTokenParamsSchema.safeParse({ ...base, decimals: '6' }).success).toBe(true);
    for (const decimals of [256, -1, 1.5, '256', 'x']) {
      expect(createTokenParamsSchema.safeParse({ ...base, decimals }).success).toBe(false);
    }
    expect(createTokenParamsSchema.safeParse({ ...base, name: 'a|b' }).success).toBe(false);
  });
});
