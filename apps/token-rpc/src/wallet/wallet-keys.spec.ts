import { describe, expect, it } from '@jest/globals';
import { HDNodeWallet, Mnemonic } from 'ethers';
import { DEV_CHAIN } from '@itp/dev-chain';
import { InvalidMnemonicError } from '../errors.js';
import {
  DERIVATION_PATH,
  deriveWalletKey,
  generateMnemonic,
  generateSecretKey,
  normalizeMnemonic,
  walletKeyOf,
} from './wallet-keys.js';

describe('wallet keys', () => {
  it('derives the standard Ethereum account #0 of a mnemonic', () => {
    const key = deriveWalletKey(DEV_CHAIN.mnemonic);
    expect(key.address).toBe(DEV_CHAIN.devOnlyAccount0.address);
    expect(key.privateKey).toBe(DEV_CHAIN.devOnlyAccount0.privateKey);
    expect(key.publicKey).toMatch(/^0x04[0-9a-f]{128}$/);
    expect(DERIVATION_PATH).toBe("m/44'/60'/0'/0/0");
  });

  it('creates 12-word valid mnemonics whose key matches ethers’ default derivation', () => {
    const phrase = generateMnemonic();
    expect(phrase.split(' ')).toHaveLength(12);
    expect(Mnemonic.isValidMnemonic(phrase)).toBe(true);
    expect(deriveWalletKey(phrase).address).toBe(HDNodeWallet.fromPhrase(phrase).address);
    expect(generateMnemonic()).not.toBe(phrase);
  });

  it('accepts extra whitespace and upper case in an imported mnemonic', () => {
    const messy = `  ${DEV_CHAIN.mnemonic.toUpperCase().split(' ').join('   ')}\n`;
    expect(normalizeMnemonic(messy)).toBe(DEV_CHAIN.mnemonic);
    expect(deriveWalletKey(messy).address).toBe(DEV_CHAIN.devOnlyAccount0.address);
  });

  it.each([
    ['a wrong checksum', 'test test test test test test test test test test test test'],
    ['a word outside the list', 'test test test test test test test test test test test junkx'],
    ['11 words', 'test test test test test test test test test test junk'],
    ['an empty phrase', '   '],
  ])('refuses %s with InvalidMnemonicError (code 400)', (_label, phrase) => {
    expect(() => deriveWalletKey(phrase)).toThrow(InvalidMnemonicError);
    try {
      deriveWalletKey(phrase);
    } catch (err) {
      expect((err as InvalidMnemonicError).code).toBe('400');
      expect((err as Error).message).not.toContain('test');
    }
  });

  it('makes 256-bit secretKeys as 64 hex digits, never twice the same', () => {
    const a = generateSecretKey();
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(generateSecretKey()).not.toBe(a);
  });

  it('computes address and public key of a private key', () => {
    const key = walletKeyOf(DEV_CHAIN.devOnlyAccount0.privateKey);
    expect(key.address).toBe(DEV_CHAIN.devOnlyAccount0.address);
  });
});
