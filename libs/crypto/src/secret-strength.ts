import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as zxcvbnCommon from '@zxcvbn-ts/language-common';
import * as zxcvbnEn from '@zxcvbn-ts/language-en';

/**
 * Production refuses weak deployment secrets (docs/api.md §1): a value published in this repository
 * (the compose demo values, examples in the docs), key material whose bytes are all the same or
 * repeat a short pattern, anything estimated below 128 bits of entropy, and anything that is not
 * key material: every secret the services take as text (internal tokens, master and KMS keys,
 * signing keys) must be at least 32 random bytes written as hex (64+ digits) or base64url / base64
 * (43+ characters), and must not read as words — an English phrase such as
 * `thisismyinternaltokenfortheauthservicepleasedontshare` scores above 128 bits on character
 * statistics and is still no key (contract: internal tokens and keys are key material).
 *
 * The estimate is deliberately conservative and simple (no dictionary): key material given as hex
 * or base64 counts 8 bits per byte of its shortest repeating unit, minus nothing for random bytes
 * and zero for an arithmetic run (00 01 02 …); free text counts, per character, the smaller of the
 * Shannon entropy of its characters and of the steps between neighbours (so `abcdef…` and
 * `aaaa…` score low), over its shortest repeating unit; and the estimate of zxcvbn-ts (words,
 * names, common passwords, keyboard patterns, l33t), so that a sentence of words is scored as
 * words. Every value gets the text estimate, and the score is the LOWER of the two: text that
 * happens to be valid base64 (`MySuperSecretPasswordForTheInternalApiToken1`) is still text.
 * Key material is recognised only as real hex (even length) or real standard base64 (it
 * round-trips, and carries `+`, `/` or `=` padding). In effect 32 random bytes
 * (`openssl rand -base64 32` or `-hex 32`) pass and 16 do not. Generate secrets with
 * `npm run secrets:generate` (or `openssl rand`), never by hand.
 */

/** Values written in this repository (compose, .env.example, docs): never accepted in production. */
export const PUBLISHED_SECRET_VALUES: readonly string[] = [
  'compose-demo-internal-token-change-me',
  'change-me',
  'changeme',
  'replace-me',
  'secret',
  'password',
];

export const MIN_SECRET_BITS = 128;

const isHex = (s: string) => /^(0x)?[0-9a-fA-F]+$/.test(s) && s.replace(/^0x/, '').length % 2 === 0;
const isStdBase64 = (s: string) =>
  /^[A-Za-z0-9+/]+={0,2}$/.test(s) && s.length % 4 === 0 && /[+/=]/.test(s);

let zxcvbn: ZxcvbnFactory | undefined;
let lastCheck: { value: string; result: ZxcvbnResult } | undefined;
type ZxcvbnResult = ReturnType<ZxcvbnFactory['check']>;

/** zxcvbn-ts's analysis of `value` (the last one kept: a secret is looked at twice); its dictionaries load on first use. */
function zxcvbnCheck(value: string): ZxcvbnResult {
  if (lastCheck?.value === value) return lastCheck.result;
  zxcvbn ??= new ZxcvbnFactory({
    dictionary: { ...zxcvbnCommon.dictionary, ...zxcvbnEn.dictionary },
    graphs: zxcvbnCommon.adjacencyGraphs,
    translations: zxcvbnEn.translations,
    // Random key material has many l33t-able characters; trying their substitutions costs
    // hundreds of milliseconds per secret and finds nothing in it.
    l33tMaxSubstitutions: 4,
  });
  const result = zxcvbn.check(value);
  lastCheck = { value, result };
  return result;
}

/** Bits (log2 of the guesses) zxcvbn-ts needs for `value`. */
function zxcvbnBits(value: string): number {
  return zxcvbnCheck(value).guessesLog10 * Math.log2(10);
}

/**
 * The share of `value`'s characters that zxcvbn-ts reads as dictionary words of 4+ letters
 * (l33t and capitals included), or as a repeated run, a keyboard walk or a sequence of 8+
 * characters (`qwertyuiop…`, `abcdefgh…`). Random key material stays
 * well below WORDY_SHARE (below 0.19 in 6,000 fresh 32-byte values of each encoding: an
 * occasional short word); a phrase, hyphenated or camel-cased, is 0.45 and above.
 */
function wordShare(value: string): number {
  let covered = 0;
  for (const match of zxcvbnCheck(value).sequence) {
    const { pattern, token } = match as { pattern: string; token: string };
    if (
      (pattern === 'dictionary' && token.length >= 4) ||
      (['repeat', 'spatial', 'sequence'].includes(pattern) && token.length >= 8)
    ) {
      covered += token.length;
    }
  }
  return value.length === 0 ? 0 : covered / value.length;
}

/** Key material whose characters read as words this much (or more) is refused. */
const WORDY_SHARE = 0.3;

/** Bytes a key or token must hold (256 bits). */
export const MIN_KEY_BYTES = 32;

/**
 * The bytes of key material of at least MIN_KEY_BYTES written as hex (64+ digits, `0x` allowed),
 * base64url (43+ characters, unpadded) or standard base64 (padded), after an optional `<id>:`;
 * undefined for anything else (text, or fewer bytes).
 */
export function keyMaterialBytes(value: string): Uint8Array | undefined {
  const material = /^[A-Za-z0-9_-]{1,32}:/.test(value)
    ? value.slice(value.indexOf(':') + 1)
    : value;
  const bytes = (() => {
    const hex = material.replace(/^0x/, '');
    if (/^[0-9a-fA-F]+$/.test(hex) && hex.length % 2 === 0) return Buffer.from(hex, 'hex');
    if (/^[A-Za-z0-9_-]+$/.test(material)) {
      const decoded = Buffer.from(material, 'base64url');
      return decoded.toString('base64url') === material ? decoded : undefined;
    }
    if (/^[A-Za-z0-9+/]+={0,2}$/.test(material)) {
      const decoded = Buffer.from(material, 'base64');
      return decoded.toString('base64') === material ? decoded : undefined;
    }
    return undefined;
  })();
  return bytes && bytes.length >= MIN_KEY_BYTES ? bytes : undefined;
}

/** The bytes of hex, standard base64 or `<id>:<base64|hex>` key material; undefined for text. */
function keyMaterial(value: string): Uint8Array | undefined {
  const material = /^[A-Za-z0-9_-]{1,32}:/.test(value)
    ? value.slice(value.indexOf(':') + 1)
    : value;
  if (isHex(material) && material.replace(/^0x/, '').length >= 32) {
    return Buffer.from(material.replace(/^0x/, ''), 'hex');
  }
  if (isStdBase64(material)) {
    const bytes = Buffer.from(material, 'base64');
    if (bytes.length >= 16 && bytes.toString('base64') === material) return bytes;
  }
  return undefined;
}

/** Length of the shortest unit whose repetition makes up `items` (its own length when none). */
function period<T>(items: ArrayLike<T>): number {
  const n = items.length;
  for (let p = 1; p <= n / 2; p += 1) {
    let repeats = true;
    for (let i = p; i < n && repeats; i += 1) repeats = items[i] === items[i - p];
    if (repeats) return p;
  }
  return n;
}

function shannonPerSymbol(symbols: number[]): number {
  if (symbols.length === 0) return 0;
  const counts = new Map<number, number>();
  for (const s of symbols) counts.set(s, (counts.get(s) ?? 0) + 1);
  let h = 0;
  for (const c of counts.values()) {
    const p = c / symbols.length;
    h -= p * Math.log2(p);
  }
  return h;
}

function steps(symbols: number[]): number[] {
  return symbols.slice(1).map((s, i) => s - (symbols[i] as number));
}

function alphabetBits(text: string): number {
  let size = 0;
  if (/[a-z]/.test(text)) size += 26;
  if (/[A-Z]/.test(text)) size += 26;
  if (/[0-9]/.test(text)) size += 10;
  if (/[^A-Za-z0-9]/.test(text)) size += 33;
  return Math.log2(Math.max(size, 2));
}

/** Estimated bits of entropy of a secret (see the module comment for how). */
export function estimateSecretBits(value: string): number {
  const bytes = keyMaterial(value);
  const keyBits = bytes ? keyMaterialBits(bytes) : Number.POSITIVE_INFINITY;
  // 32+ bytes written as hex or base64(url) are judged by their character statistics, not by
  // zxcvbn: zxcvbn counts 10 guesses per character it finds no pattern in (143 bits for 43
  // base64url characters), so a short word that random bytes spell by chance took one fresh
  // `openssl rand -base64 32` in a few thousand under 128 bits. A phrase written as base64 is
  // refused by secretWeakness's word share instead.
  const text = keyMaterialBytes(value) ? statisticsBits(value) : textBits(value);
  return Math.min(keyBits, text);
}

/** 8 bits per byte of the shortest repeating unit; 0 for one byte or an arithmetic run. */
function keyMaterialBits(bytes: Uint8Array): number {
  const unit = Array.from(bytes.subarray(0, period(bytes)));
  if (unit.length <= 1) return 0;
  if (new Set(steps(unit)).size === 1) return 0;
  return unit.length * 8;
}

/** The character statistics: Shannon entropy of the characters and of their steps, per unit. */
function statisticsBits(value: string): number {
  const chars = Array.from(value).map((c) => c.codePointAt(0) ?? 0);
  const unit = chars.slice(0, period(chars));
  const perChar = Math.min(shannonPerSymbol(unit), shannonPerSymbol(steps(unit)) || 0);
  return Math.min(unit.length * perChar, unit.length * alphabetBits(value));
}

/** The text estimate: the lower of the character statistics and zxcvbn-ts. */
function textBits(value: string): number {
  const statistics = statisticsBits(value);
  // zxcvbn's cost grows with the length; past 256 characters the statistics alone decide.
  return value.length > 256 ? statistics : Math.min(statistics, zxcvbnBits(value));
}

/** Why `value` may not be used as a production secret, or undefined when it may. */
export function secretWeakness(value: string): string | undefined {
  const trimmed = value.trim();
  const lower = trimmed.toLowerCase();
  if (PUBLISHED_SECRET_VALUES.some((published) => published.toLowerCase() === lower)) {
    return 'is a value published in this repository: generate a fresh one';
  }
  if (/change.?me|replace.?me|example|placeholder/i.test(trimmed)) {
    return 'looks like a placeholder: generate a fresh one';
  }
  const bytes = keyMaterial(trimmed);
  if (bytes && bytes.every((b) => b === bytes[0])) {
    return 'is key material whose bytes are all the same';
  }
  const bits = estimateSecretBits(trimmed);
  if (bits < MIN_SECRET_BITS) {
    return `has an estimated ${Math.floor(bits)} bits of entropy; at least ${MIN_SECRET_BITS} are required`;
  }
  if (!keyMaterialBytes(trimmed)) {
    return (
      `is not key material: give at least ${MIN_KEY_BYTES} random bytes as hex (64+ digits) or ` +
      'base64url (43+ characters), e.g. `openssl rand -hex 32`'
    );
  }
  if (wordShare(trimmed) >= WORDY_SHARE) {
    return 'reads as words, not as random bytes: generate it, e.g. `openssl rand -hex 32`';
  }
  return undefined;
}

/**
 * Checks named secrets; returns one problem line per weak one (`NAME: why`), never the value.
 * Undefined entries are skipped (the caller decides whether a missing secret is an error).
 */
export function weakSecretIssues(secrets: Record<string, string | undefined>): string[] {
  const issues: string[] = [];
  for (const [name, value] of Object.entries(secrets)) {
    if (value === undefined) continue;
    const weakness = secretWeakness(value);
    if (weakness) issues.push(`${name}: ${weakness}`);
  }
  return issues;
}

/**
 * weakSecretIssues for a list setting (e.g. INTERNAL_API_ACCEPTED_TOKENS): each weak entry gives
 * `NAME (entry n): why`, n counted from 1, never the value.
 */
export function weakSecretListIssues(
  name: string,
  values: readonly string[] | undefined,
): string[] {
  return weakSecretIssues(
    Object.fromEntries((values ?? []).map((value, i) => [`${name} (entry ${i + 1})`, value])),
  );
}
