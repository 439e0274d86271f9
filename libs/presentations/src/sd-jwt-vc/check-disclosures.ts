import { refuse } from './refuse.js';
import { sha256Base64url } from './sha256-base64url.js';

const RESERVED_KEYS = new Set(['_sd', '...', '__proto__']);

/**
 * Refuses ('disclosure') a presented disclosure that the issuer did not hash into the credential:
 * each disclosure's SHA-256 must be listed in the issuer-signed payload, or in another presented
 * disclosure's value — an object property's in an `_sd` array, an array element's as `{"...":
 * digest}` — and appear once. A tampered disclosure has another digest, so it is refused.
 * `_sd_alg` must be sha-256 (or absent) ('format').
 */
export function checkDisclosures(
  payload: Record<string, unknown>,
  disclosures: readonly string[],
): void {
  if (payload._sd_alg !== undefined && payload._sd_alg !== 'sha-256') {
    throw refuse('format', `_sd_alg ${String(payload._sd_alg)} is not sha-256`);
  }
  const parsed = disclosures.map(parseDisclosure);
  const referenced = { property: new Set<string>(), element: new Set<string>() };
  collectDigests(payload, referenced);
  for (const disclosure of parsed) collectDigests(disclosure.value, referenced);
  const seen = new Set<string>();
  for (const disclosure of parsed) {
    if (seen.has(disclosure.digest)) throw refuse('disclosure', 'a disclosure is presented twice');
    seen.add(disclosure.digest);
    const listed = disclosure.key === undefined ? referenced.element : referenced.property;
    if (!listed.has(disclosure.digest)) {
      throw refuse(
        'disclosure',
        'a disclosure is not hashed into the credential (tampered or foreign)',
      );
    }
  }
}

interface ParsedDisclosure {
  digest: string;
  key: string | undefined;
  value: unknown;
}

function parseDisclosure(encoded: string): ParsedDisclosure {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
  } catch {
    throw refuse('disclosure', 'a disclosure is not base64url JSON');
  }
  if (!Array.isArray(decoded) || typeof decoded[0] !== 'string') {
    throw refuse('disclosure', 'a disclosure is not [salt, (name,) value]');
  }
  const digest = sha256Base64url(encoded);
  if (decoded.length === 2) return { digest, key: undefined, value: decoded[1] };
  if (decoded.length === 3 && typeof decoded[1] === 'string' && !RESERVED_KEYS.has(decoded[1])) {
    return { digest, key: decoded[1], value: decoded[2] };
  }
  throw refuse('disclosure', 'a disclosure is not [salt, (name,) value] or names a reserved claim');
}

function collectDigests(
  value: unknown,
  into: { property: Set<string>; element: Set<string> },
): void {
  if (Array.isArray(value)) {
    for (const item of value) {
      const digest = arrayElementDigest(item);
      if (digest === undefined) collectDigests(item, into);
      else into.element.add(digest);
    }
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  for (const [key, child] of Object.entries(value)) {
    if (key === '_sd' && Array.isArray(child)) {
      for (const digest of child) if (typeof digest === 'string') into.property.add(digest);
    } else {
      collectDigests(child, into);
    }
  }
}

function arrayElementDigest(item: unknown): string | undefined {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return undefined;
  const keys = Object.keys(item);
  const digest = (item as Record<string, unknown>)['...'];
  return keys.length === 1 && typeof digest === 'string' ? digest : undefined;
}
