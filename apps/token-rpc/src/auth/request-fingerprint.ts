import { sha256Hex } from '@itp/crypto';

/**
 * The fingerprint of a transaction request: hex SHA-256 of its method and its params (as
 * validated: every field exactly as sent, members in name order, JSON types kept, so `18` and
 * `"18"` differ). Two requests with one fingerprint are the same request (an identical retry).
 * It is what is stored with a used tempKey, so that hashKey and signature are never stored in clear.
 */
export function requestFingerprint(
  method: string,
  params: Readonly<Record<string, unknown>>,
): string {
  const members = Object.keys(params)
    .filter((name) => params[name] !== undefined)
    .sort()
    .map((name) => [name, params[name]]);
  return sha256Hex(JSON.stringify([method, members]));
}
