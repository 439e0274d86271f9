import { DateOnly, base64url } from '@owf/mdoc';

/**
 * An element value as JSON-friendly data: full-date (tag 1004) as YYYY-MM-DD, tdate (tag 0) as
 * an ISO timestamp, byte strings as base64url, maps as objects, big integers as numbers when
 * safe (strings otherwise).
 */
export function claimValue(value: unknown): unknown {
  if (value instanceof DateOnly) return value.toISOString();
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return base64url.encode(value);
  if (typeof value === 'bigint')
    return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (Array.isArray(value)) return value.map(claimValue);
  if (value instanceof Map)
    return Object.fromEntries([...value].map(([key, item]) => [String(key), claimValue(item)]));
  return value;
}
