import { describe, expect, it } from '@jest/globals';
import { SigningKey, getBytes, verifyMessage } from 'ethers';
import { DEV_CHAIN } from '@itp/dev-chain';
import { sha256Hex } from '@itp/crypto';
import { recoverEip191, signHashEip191, toDigest } from './signatures.js';

const key = new SigningKey(DEV_CHAIN.devOnlyAccount0.privateKey);
const address = DEV_CHAIN.devOnlyAccount0.address;
const hash = sha256Hex('from|to|1|tempKey|hashKey');

describe('signatures', () => {
  it('signs the 32 hash bytes with EIP-191, verifiable with ethers verifyMessage', () => {
    const signature = signHashEip191(key, hash);
    expect(signature).toMatch(/^0x[0-9a-f]{130}$/);
    expect(verifyMessage(getBytes(`0x${hash}`), signature)).toBe(address);
    expect(recoverEip191(hash, signature)).toBe(address);
  });

  it('treats the hash the same with or without 0x and in either case', () => {
    const signature = signHashEip191(key, `0x${hash.toUpperCase()}`);
    expect(signature).toBe(signHashEip191(key, hash));
    expect(recoverEip191(`0x${hash}`, signature)).toBe(address);
  });

  it('recovers another address for another hash, and null for a malformed signature', () => {
    const signature = signHashEip191(key, hash);
    expect(recoverEip191(sha256Hex('other'), signature)).not.toBe(address);
    expect(recoverEip191(hash, `0x${'00'.repeat(65)}`)).toBeNull();
  });

  it('refuses a digest that is not 32 bytes', () => {
    expect(() => toDigest('0x1234')).toThrow(TypeError);
  });
});
