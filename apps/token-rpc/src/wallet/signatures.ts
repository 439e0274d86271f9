import type { SigningKey } from 'ethers';
import { Signature, getBytes, hashMessage, recoverAddress } from 'ethers';

/** 32 bytes as 0x + 64 lower-case hex, from 64 hex digits with or without 0x. */
export function toDigest(hash: string): string {
  const hex = hash.startsWith('0x') || hash.startsWith('0X') ? hash.slice(2) : hash;
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new TypeError('a 32-byte hash needs 64 hex digits');
  return `0x${hex.toLowerCase()}`;
}

/**
 * signData's signature: EIP-191 personal-message signature over the 32 raw bytes of `hash`
 * (`keccak256("\x19Ethereum Signed Message:\n32" ‖ hash)`), serialized r ‖ s ‖ v (v 27/28).
 * The prefix keeps it from ever being a valid transaction or raw-digest signature.
 */
export function signHashEip191(signingKey: SigningKey, hash: string): string {
  return signingKey.sign(hashMessage(getBytes(toDigest(hash)))).serialized;
}

/** The address an EIP-191 signature over `hash` recovers, or null for a malformed signature. */
export function recoverEip191(hash: string, signature: string): string | null {
  try {
    return recoverAddress(hashMessage(getBytes(toDigest(hash))), Signature.from(signature));
  } catch {
    return null;
  }
}
