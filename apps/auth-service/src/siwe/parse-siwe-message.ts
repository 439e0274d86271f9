import { ParsedMessage } from '@spruceid/siwe-parser';
import { SiweMalformedError } from '../errors.js';

/** The fields of an EIP-4361 message (times as the message writes them). */
export interface SiweFields {
  scheme?: string;
  /** RFC 3986 authority of the site that asks: host, optional userinfo and port. */
  domain: string;
  /** EIP-55 checksummed. */
  address: `0x${string}`;
  statement?: string;
  uri: string;
  version: string;
  chainId: number;
  nonce: string;
  issuedAt: string;
  expirationTime?: string;
  notBefore?: string;
  requestId?: string;
  resources?: string[];
}

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/i;

/**
 * Epoch ms of an RFC 3339 date-time, or NaN when it names no real instant (e.g. 31 February,
 * which the EIP-4361 grammar lets through): the calendar fields must survive a round trip.
 */
export function siweTime(value: string): number {
  const match = DATE_TIME.exec(value);
  if (!match) return Number.NaN;
  const [, year, month, day, hour, minute, second] = match.map(Number) as number[];
  const asUtc = new Date(Date.UTC(year!, month! - 1, day!, hour!, minute!, second!));
  const calendarOk =
    asUtc.getUTCFullYear() === year &&
    asUtc.getUTCMonth() === month! - 1 &&
    asUtc.getUTCDate() === day &&
    asUtc.getUTCHours() === hour &&
    asUtc.getUTCMinutes() === minute &&
    asUtc.getUTCSeconds() === second;
  return calendarOk ? Date.parse(value) : Number.NaN;
}

/**
 * Parses an EIP-4361 message by the specification's ABNF grammar (the reference parser of the
 * siwe project: field order, EIP-55 address, RFC 3986 authority and URIs, version 1, nonce of 8+
 * alphanumerics, RFC 3339 times) and checks that every time names a real instant. Anything else
 * is a SiweMalformedError (400) saying what is wrong.
 */
export function parseSiweMessage(message: string): SiweFields {
  let parsed: ParsedMessage;
  try {
    parsed = new ParsedMessage(message);
  } catch (err) {
    throw new SiweMalformedError(`Not an EIP-4361 message: ${firstLine(err)}`);
  }
  for (const [name, value] of [
    ['Issued At', parsed.issuedAt],
    ['Expiration Time', parsed.expirationTime],
    ['Not Before', parsed.notBefore],
  ] as const) {
    if (value !== undefined && Number.isNaN(siweTime(value))) {
      throw new SiweMalformedError(`Not an EIP-4361 message: ${name} is no valid date-time`);
    }
  }
  return {
    ...(parsed.scheme ? { scheme: parsed.scheme } : {}),
    domain: parsed.domain,
    address: parsed.address as `0x${string}`,
    ...(parsed.statement !== undefined ? { statement: parsed.statement } : {}),
    uri: parsed.uri,
    version: parsed.version,
    chainId: parsed.chainId,
    nonce: parsed.nonce,
    issuedAt: parsed.issuedAt,
    ...(parsed.expirationTime ? { expirationTime: parsed.expirationTime } : {}),
    ...(parsed.notBefore ? { notBefore: parsed.notBefore } : {}),
    ...(parsed.requestId !== undefined ? { requestId: parsed.requestId } : {}),
    ...(parsed.resources ? { resources: parsed.resources } : {}),
  };
}

/** The parser's reason, without its grammar-state dump. */
function firstLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return (text.split('\n')[0] ?? text).slice(0, 200);
}
