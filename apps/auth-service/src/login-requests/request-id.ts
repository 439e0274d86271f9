import { randomBytes } from 'node:crypto';

/** Literal between the site prefix and the id (docs/api.md §2). */
export const REQUEST_ID_MARKER = 'requestId=';

/** 13 digits of millisecond timestamp + 39 digits holding 128 random bits. */
const TIMESTAMP_DIGITS = 13;
const RANDOM_DIGITS = 39;
const ID_PATTERN = new RegExp(`^\\d{${TIMESTAMP_DIGITS + RANDOM_DIGITS}}$`);

/**
 * A new login request id: the millisecond timestamp, then 128 random bits as a zero-padded
 * decimal (≥ 96 bits required; unguessable), 52 digits in all.
 */
export function newLoginRequestId(nowMs: number): string {
  const random = BigInt(`0x${randomBytes(16).toString('hex')}`);
  return (
    String(Math.floor(nowMs)).padStart(TIMESTAMP_DIGITS, '0') +
    random.toString(10).padStart(RANDOM_DIGITS, '0')
  );
}

/** `<site prefix as sent>requestId=<id>`. */
export function formatRequestId(sitePrefix: string, id: string): string {
  return `${sitePrefix}${REQUEST_ID_MARKER}${id}`;
}

export interface ParsedRequestId {
  sitePrefix: string;
  id: string;
}

/** Splits a requestId made by formatRequestId; undefined for anything else. */
export function parseRequestId(requestId: string): ParsedRequestId | undefined {
  const at = requestId.lastIndexOf(REQUEST_ID_MARKER);
  if (at < 0) return undefined;
  const id = requestId.slice(at + REQUEST_ID_MARKER.length);
  if (!ID_PATTERN.test(id)) return undefined;
  return { sitePrefix: requestId.slice(0, at), id };
}
