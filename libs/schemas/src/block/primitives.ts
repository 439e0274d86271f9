import { z } from 'zod';

/**
 * Building blocks of the block API schemas. Not exported from the package index (other APIs have
 * their own), only used by the message schemas beside this file.
 */

/** Any 0x-prefixed hex string (data, bloom filters, signatures), as the node sent it. */
export const hexData = z
  .string()
  .regex(/^0x[0-9a-fA-F]*$/, 'must be a 0x-prefixed hex string')
  .meta({ description: '0x-prefixed hex data, as the node sent it' });

/** A 0x-prefixed hex quantity, exactly as the node sent it (the exact value of an integer field). */
export const hexQuantity = z
  .string()
  .regex(/^0x[0-9a-fA-F]+$/, 'must be a 0x-prefixed hex quantity')
  .meta({ description: "the node's 0x-prefixed hex form (exact at any size)" });

/** A 32-byte hash: 0x + 64 hex digits. */
export const hash32 = z
  .string()
  .regex(/^0x[0-9a-fA-F]{64}$/, 'must be a 0x-prefixed 32-byte hex hash')
  .meta({ description: '0x-prefixed 32-byte hash (0x + 64 hex digits)' });

/** A 20-byte address: 0x + 40 hex digits. */
export const address = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 20-byte hex address')
  .meta({ description: '0x-prefixed 20-byte address (0x + 40 hex digits)' });

/**
 * A non-negative integer as a JSON number. Exact up to Number.MAX_SAFE_INTEGER (2^53 - 1); a larger
 * value is the nearest IEEE-754 double (still integer-valued, possibly rounded). Where a `…Raw`
 * sibling exists it carries the exact value.
 */
export const uint = z.number().nonnegative().multipleOf(1).meta({
  type: 'integer',
  description:
    'non-negative integer; exact up to 2^53-1, larger values are rounded to the nearest double (use the …Raw field for the exact value)',
});

/** An amount of wei (or any unbounded quantity) as an exact decimal string. */
export const decimalString = z
  .string()
  .regex(/^(0|[1-9][0-9]*)$/, 'must be a non-negative decimal integer string')
  .meta({ description: 'non-negative integer as an exact decimal string (wei)' });

/**
 * Exactly the existing calendar dates 1970-01-01 … 9999-12-31 (leap years included), so the JSON
 * Schema `pattern` is as strict as the service (isRealDay agrees, checked in primitives.spec.ts).
 */
export const REAL_DAY = new RegExp(
  '^(?:(?:19[7-9]\\d|[2-9]\\d{3})-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|02-(?:0[1-9]|1\\d|2[0-8]))' +
    '|(?:19(?:7[26]|8[048]|9[26])|[2-9]\\d(?:0[48]|[2468][048]|[13579][26])|(?:[2468][048]|[3579][26])00)-02-29)$',
);

/** A calendar date `YYYY-MM-DD` (UTC day), 1970-01-01 … 9999-12-31, that exists. */
export const isoDay = z
  .string()
  .regex(REAL_DAY, 'must be an existing calendar date YYYY-MM-DD between 1970-01-01 and 9999-12-31')
  .meta({ description: 'UTC calendar date YYYY-MM-DD' });

export function isRealDay(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1970) return false;
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
  );
}
