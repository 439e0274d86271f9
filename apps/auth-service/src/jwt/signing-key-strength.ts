import { secretWeakness } from '@itp/crypto';
import { signingKeyEntries } from './signing-keys.js';

/**
 * Private scalars (`d`, base64url) of EC keys published as examples: RFC 7515 A.3 and RFC 7517
 * A.2 (copied into many tutorials). A signing key equal to one of them is public, not secret.
 */
export const PUBLISHED_SIGNING_KEY_D: readonly string[] = [
  'jpsQnnGQmL-YBIffH1136cLSG8AVHOt5qhxYLuVvsPc',
  '870MB6gfuTJ4HtUnUvYMyJpr5eUZNP4Bk43bVdj3eAE',
];

const publishedHex = new Set(
  PUBLISHED_SIGNING_KEY_D.map((d) => Buffer.from(d, 'base64url').toString('hex')),
);

/** The `d` members of a JWT_SIGNING_KEYS value that parses; others are left to parseSigningKeys. */
function privateScalars(json: string): Array<string | undefined> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return [];
  }
  return (signingKeyEntries(parsed) ?? []).map((jwk) => {
    const d = (jwk as { d?: unknown } | null)?.d;
    return typeof d === 'string' && /^[A-Za-z0-9_-]+$/.test(d) ? d : undefined;
  });
}

/**
 * Production refuses weak signing keys: for each key whose private scalar `d` (as hex) is
 * published, has all bytes the same, or is estimated below 128 bits, one line
 * `JWT_SIGNING_KEYS: key #i …` — naming the key's position, never its material.
 */
export function weakSigningKeyIssues(json: string | undefined): string[] {
  if (!json) return [];
  const issues: string[] = [];
  for (const [index, d] of privateScalars(json).entries()) {
    if (d === undefined) continue;
    const hex = Buffer.from(d, 'base64url').toString('hex');
    const why = publishedHex.has(hex)
      ? 'is a key published as an example: generate a fresh one'
      : secretWeakness(hex);
    if (why) issues.push(`JWT_SIGNING_KEYS: key #${index} private key ${why}`);
  }
  return issues;
}
