import { LangEn } from 'ethers';
import type { SecretKind, SecretLedger } from './secret-ledger.js';

export interface Hit {
  /** What was found: a known secret of the run, or a secret-shaped text. */
  kind: SecretKind | 'jwt-shaped' | 'mnemonic-shaped' | 'key-field';
  /** Where (file and line, or table / Redis key). */
  where: string;
  /** A short, masked excerpt: never the secret itself. */
  excerpt: string;
}

const WORDS = new Set(Array.from({ length: 2048 }, (_, i) => LangEn.wordlist().getWord(i)));
/** A compact JWS/JWT: base64url header starting `{"` (eyJ), payload, signature. */
const JWT = /eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{16,}/g;
/** A member named like a secret holding a value (pino redaction writes "[Redacted]"). */
const KEY_FIELD =
  /"(privateKey|private_key|secretKey|secret_key|hashKey|mnemonic|password|seed)"\s*:\s*"(?!\[Redacted\])([^"]{8,})"/gi;

function mask(text: string, at: number, length: number): string {
  const from = Math.max(0, at - 30);
  return `${text.slice(from, at)}«${length} chars»${text.slice(at + length, at + length + 30)}`.replace(
    /\s+/g,
    ' ',
  );
}

/** Runs of ≥ 12 consecutive BIP-39 English words (a mnemonic in any text). */
function mnemonicRuns(text: string): Array<{ at: number; length: number }> {
  const runs: Array<{ at: number; length: number }> = [];
  const word = /[a-z]+/g;
  let start = -1;
  let end = 0;
  let count = 0;
  let gapFrom = 0;
  for (let m = word.exec(text); m; m = word.exec(text)) {
    const joined = /^[\s,"'[\]]*$/.test(text.slice(gapFrom, m.index));
    if (WORDS.has(m[0]) && (count === 0 || joined)) {
      if (count === 0) start = m.index;
      count += 1;
      end = m.index + m[0].length;
    } else {
      if (count >= 12) runs.push({ at: start, length: end - start });
      count = WORDS.has(m[0]) ? 1 : 0;
      start = m.index;
      end = m.index + m[0].length;
    }
    gapFrom = m.index + m[0].length;
  }
  if (count >= 12) runs.push({ at: start, length: end - start });
  return runs;
}

/**
 * Finds, in one text (a log line, a row, a Redis value): every known secret of the ledger
 * (private keys with or without 0x, in any letter case), and secret-shaped text: JWTs (`shapes`
 * includes 'jwt'), runs of 12+ BIP-39 words, and members named like a secret with a clear value.
 */
export function scanText(
  text: string,
  where: string,
  ledger: SecretLedger,
  shapes: { jwt: boolean } = { jwt: true },
): Hit[] {
  const hits: Hit[] = [];
  const lower = text.toLowerCase();
  for (const [secret, kind] of ledger.entries()) {
    // Private keys are kept lower case without 0x: looked up in the lower-cased text.
    const at = kind === 'privateKey' ? lower.indexOf(secret) : text.indexOf(secret);
    if (at >= 0) hits.push({ kind, where, excerpt: mask(text, at, secret.length) });
    if (kind === 'mnemonic') {
      const spaced = secret.split(/\s+/).join('\\s+');
      const m = new RegExp(spaced, 'i').exec(text);
      if (m && at < 0) hits.push({ kind, where, excerpt: mask(text, m.index, m[0].length) });
    }
  }
  if (shapes.jwt) {
    for (const m of text.matchAll(JWT)) {
      hits.push({ kind: 'jwt-shaped', where, excerpt: mask(text, m.index ?? 0, m[0].length) });
    }
  }
  for (const run of mnemonicRuns(lower)) {
    hits.push({ kind: 'mnemonic-shaped', where, excerpt: mask(text, run.at, run.length) });
  }
  for (const m of text.matchAll(KEY_FIELD)) {
    hits.push({ kind: 'key-field', where, excerpt: mask(text, m.index ?? 0, m[0].length) });
  }
  return hits;
}
