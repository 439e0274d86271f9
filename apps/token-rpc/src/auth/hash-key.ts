import { constantTimeEqual, sha256Hex } from '@itp/crypto';

/** hashKey = hex SHA-256 of `<tempKey>|<secretKey>` (docs/api.md §4.2). */
export function computeHashKey(tempKey: string, secretKey: string): string {
  return sha256Hex(`${tempKey}|${secretKey}`);
}

/**
 * Whether a presented hashKey (64 hex digits, either case, optional 0x) is the hashKey of this
 * tempKey and secretKey. Compared in constant time.
 */
export function hashKeyMatches(presented: string, tempKey: string, secretKey: string): boolean {
  const hex = presented.startsWith('0x') ? presented.slice(2) : presented;
  return constantTimeEqual(hex.toLowerCase(), computeHashKey(tempKey, secretKey));
}
