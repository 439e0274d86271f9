import { randomBytes } from 'node:crypto';
import { HDNodeWallet, Mnemonic, SigningKey, computeAddress } from 'ethers';
import { randomHex } from '@itp/crypto';
import { InvalidMnemonicError } from '../errors.js';

/** The standard Ethereum path (BIP-44 coin type 60, first account, first address). */
export const DERIVATION_PATH = "m/44'/60'/0'/0/0";

/** Key material of one wallet address. `privateKey` never leaves the service. */
export interface WalletKey {
  /** EIP-55 checksummed. */
  address: string;
  /** 0x + 64 hex. */
  privateKey: string;
  /** Uncompressed secp256k1 public key, 0x04 + 128 hex. */
  publicKey: string;
}

/** A new 12-word BIP-39 mnemonic (128 bits of entropy), English word list. */
export function generateMnemonic(): string {
  return Mnemonic.fromEntropy(randomBytes(16)).phrase;
}

/** The secret used for hashKey: 256 random bits as 64 lower-case hex digits. */
export function generateSecretKey(): string {
  return randomHex(32);
}

/** Trims, lower-cases and collapses whitespace, so `"  Word  word "` and `"word word"` match. */
export function normalizeMnemonic(phrase: string): string {
  return phrase.trim().toLowerCase().split(/\s+/).join(' ');
}

/** Derives the key on DERIVATION_PATH; a phrase that is not valid BIP-39 → InvalidMnemonicError. */
export function deriveWalletKey(phrase: string): WalletKey {
  const normalized = normalizeMnemonic(phrase);
  const words = normalized.split(' ').length;
  if (words < 12 || words > 24 || words % 3 !== 0 || !Mnemonic.isValidMnemonic(normalized)) {
    throw new InvalidMnemonicError();
  }
  const wallet = HDNodeWallet.fromPhrase(normalized, undefined, DERIVATION_PATH);
  return walletKeyOf(wallet.privateKey);
}

/** Address and public key of a private key. */
export function walletKeyOf(privateKey: string): WalletKey {
  const signingKey = new SigningKey(privateKey);
  return {
    address: computeAddress(signingKey.publicKey),
    privateKey: signingKey.privateKey,
    publicKey: signingKey.publicKey,
  };
}
