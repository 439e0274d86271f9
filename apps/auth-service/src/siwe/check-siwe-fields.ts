import { SiweMalformedError, SiweRefusedError } from '../errors.js';
import { siweTime, type SiweFields } from './parse-siwe-message.js';

/** What a message for this service must carry (docs/api.md §11). */
export interface SiweExpectations {
  /** PUBLIC_URL's authority (host[:port]). */
  domain: string;
  /** PUBLIC_URL: the message's URI must be it or a URL below it. */
  uri: string;
  /** The configured chain. */
  chainId: number;
}

/** How much a signer's clock may run ahead for Not Before and behind for Expiration Time. */
export const SIWE_CLOCK_SKEW_MS = 60_000;

/**
 * The binding rules of EIP-4361 §"Verifying a signed message" beyond the first line (its domain
 * and scheme are checkSiweOrigin's, run before the message is parsed): the URI is PUBLIC_URL or
 * below it, the chain is the configured one, Expiration Time has not passed and Not Before has
 * (a minute of clock skew either way). A refusal is a SiweRefusedError naming the rule. The nonce
 * and the signature are checked by the caller.
 */
export function checkSiweFields(fields: SiweFields, expected: SiweExpectations, now: number): void {
  if (!uriBelongs(fields.uri, expected.uri)) {
    throw new SiweRefusedError(
      `The message's URI ${JSON.stringify(fields.uri)} is not this service's (${expected.uri})`,
    );
  }
  if (fields.chainId !== expected.chainId) {
    throw new SiweRefusedError(
      `The message is for chain ${fields.chainId}; this service signs in on chain ${expected.chainId}`,
    );
  }
  if (fields.expirationTime !== undefined) {
    if (siweTime(fields.expirationTime) + SIWE_CLOCK_SKEW_MS <= now) {
      throw new SiweRefusedError('The message has expired (Expiration Time)');
    }
  }
  if (fields.notBefore !== undefined) {
    if (siweTime(fields.notBefore) - SIWE_CLOCK_SKEW_MS > now) {
      throw new SiweRefusedError('The message is not valid yet (Not Before)');
    }
  }
}

const FIRST_LINE_END = ' wants you to sign in with your Ethereum account:';

/**
 * The first line of an EIP-4361 message, checked before the grammar runs: it must be
 * `[scheme://]domain wants you to sign in with your Ethereum account:` (else 400) and name this
 * service: its domain, and its scheme when it gives one (else 401; the wallet showed the user
 * this site, not a phishing site's). The grammar parser spends up to ~0.1 s on a long hostile
 * authority; a message for anyone else never reaches it.
 */
export function checkSiweOrigin(message: string, expected: SiweExpectations): void {
  const newline = message.indexOf('\n');
  const first = newline < 0 ? message : message.slice(0, newline);
  if (!first.endsWith(FIRST_LINE_END)) {
    throw new SiweMalformedError(
      `Not an EIP-4361 message: the first line must be "<domain>${FIRST_LINE_END}"`,
    );
  }
  const origin = first.slice(0, -FIRST_LINE_END.length);
  const scheme = new URL(expected.uri).protocol.slice(0, -1);
  if (origin !== expected.domain && origin !== `${scheme}://${expected.domain}`) {
    throw new SiweRefusedError(
      `The message is for ${JSON.stringify(origin.slice(0, 256))}, not for this service (${expected.domain})`,
    );
  }
}

/** `uri` is `base` itself or a URL below it (same origin, path under base's path). */
function uriBelongs(uri: string, base: string): boolean {
  if (uri === base) return true;
  let parsed: URL;
  try {
    parsed = new URL(uri);
  } catch {
    return false;
  }
  const root = new URL(base);
  if (parsed.origin !== root.origin || parsed.username || parsed.password) return false;
  const prefix = root.pathname.endsWith('/') ? root.pathname : `${root.pathname}/`;
  return parsed.pathname === root.pathname || parsed.pathname.startsWith(prefix);
}
