/**
 * How 64-bit integers come back from either dialect: a JS `number` when it is a safe integer
 * (|n| ≤ 2^53 − 1: ids, counters, millisecond timestamps, block numbers, COUNT(*)), a `bigint`
 * otherwise, so a value is never silently rounded. Amounts that can exceed 2^63 (wei) belong in
 * NUMERIC / TEXT columns as decimal strings, which both dialects return as strings.
 */
export function parseInt8(text: string): number | bigint {
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : BigInt(text);
}

/** A `bigint` from SQLite (read with safe integers on) as a `number` when that is exact. */
export function narrowBigint(value: bigint): number | bigint {
  return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)
    ? Number(value)
    : value;
}
