import { createHash } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import {
  createTokenSigningString,
  erc20SigningString,
  signingHash,
  transferSigningString,
} from './signing-string.js';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

describe('signing strings (docs/api.md §4)', () => {
  it('transfer: from|to|amount|tempKey|hashKey, fields exactly as sent', () => {
    const s = transferSigningString({
      from: '0xAbC0000000000000000000000000000000000001',
      to: '0xabc0000000000000000000000000000000000002',
      amount: '1000',
      tempKey: 't',
      hashKey: 'H',
    });
    expect(s.template).toBe('from|to|amount|tempKey|hashKey');
    expect(s.text).toBe(
      '0xAbC0000000000000000000000000000000000001|0xabc0000000000000000000000000000000000002|1000|t|H',
    );
    expect(signingHash(s)).toBe(sha(s.text));
  });

  it('createToken: decimals as sent (number in shortest form, string as is)', () => {
    const base = {
      from: '0x1',
      name: 'My Token',
      symbol: 'MYT',
      initialSupply: '5',
      tempKey: 't',
      hashKey: 'h',
    };
    expect(createTokenSigningString({ ...base, decimals: 18 }).text).toBe(
      '0x1|My Token|MYT|18|5|t|h',
    );
    expect(createTokenSigningString({ ...base, decimals: '018' }).text).toBe(
      '0x1|My Token|MYT|018|5|t|h',
    );
    expect(createTokenSigningString({ ...base, decimals: 6 }).template).toBe(
      'from|name|symbol|decimals|initialSupply|tempKey|hashKey',
    );
  });

  it('erc20: from|contract|to|amount|tempKey|hashKey', () => {
    const s = erc20SigningString({
      from: 'f',
      contract: 'c',
      to: 'r',
      amount: '7',
      tempKey: 't',
      hashKey: 'h',
    });
    expect(s.text).toBe('f|c|r|7|t|h');
    expect(s.template).toBe('from|contract|to|amount|tempKey|hashKey');
  });
});
