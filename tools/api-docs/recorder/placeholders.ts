/**
 * Secrets never reach the committed examples: every value of a member that carries one is
 * replaced by a placeholder that is clearly fake but still fits the schema, and the recorder then
 * checks that none of the real values (nor the dev stack's published credentials) is left
 * anywhere in the text it writes.
 */

/** 64 lower-case hex digits, as secretKey must be; an obvious pattern, never a real key. */
export const SECRET_KEY_PLACEHOLDER = '0123456789abcdef'.repeat(4);

/**
 * Twelve words, visibly no BIP-39 phrase (createAddress's mnemonic is any string to the schema).
 */
export const MNEMONIC_PLACEHOLDER =
  'placeholder words stand in for the twelve word mnemonic createAddress returned once';

/**
 * The BIP-39 test vector "abandon … about": public, so it is no secret and stays as sent (the
 * importAddress example restores it, and its address is the well-known one).
 */
export const PUBLIC_TEST_MNEMONIC = `${'abandon '.repeat(11)}about`;

export const PASSWORD_PLACEHOLDER = 'example-password';

/** The signature part of a login JWT is replaced: the header and claims stay as answered. */
export const JWT_SIGNATURE_PLACEHOLDER = 'PLACEHOLDER-not-a-real-signature';

const JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** What replaces the value of a member named `key`, or undefined when the member is no secret. */
function placeholderFor(key: string, value: unknown): string | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  switch (key) {
    case 'secretKey':
      return SECRET_KEY_PLACEHOLDER;
    case 'mnemonic':
      return value === PUBLIC_TEST_MNEMONIC ? value : MNEMONIC_PLACEHOLDER;
    case 'password':
      return PASSWORD_PLACEHOLDER;
    case 'token':
      // The login JWT (auth-user and friends, and the token to extend).
      if (!JWT.test(value)) throw new Error('a `token` member that is no JWT: not redacted');
      return `${value.slice(0, value.lastIndexOf('.'))}.${JWT_SIGNATURE_PLACEHOLDER}`;
    default:
      return undefined;
  }
}

export interface Redacted<T> {
  value: T;
  /** The real values that were replaced (to check that none is left elsewhere). */
  replaced: string[];
}

/** A deep copy of `value` with every secret member replaced (see placeholderFor). */
export function redactSecrets<T>(value: T): Redacted<T> {
  const replaced = new Set<string>();
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== 'object') return node;
    return Object.fromEntries(
      Object.entries(node).map(([key, member]) => {
        const placeholder = placeholderFor(key, member);
        if (placeholder === undefined) return [key, walk(member)];
        if (placeholder !== member) replaced.add(member as string);
        return [key, placeholder];
      }),
    );
  };
  return { value: walk(value) as T, replaced: [...replaced] };
}

/** `value` as JSON for an error message, secrets replaced (or not shown at all). */
export function shownSafely(value: unknown): string {
  try {
    return JSON.stringify(redactSecrets(value).value);
  } catch {
    return '(body not shown: it may hold a secret)';
  }
}

/**
 * Throws when `text` still holds any of `secrets` (or, for a JWT, its signature), naming only
 * where, never the value.
 */
export function assertNoSecrets(text: string, secrets: readonly string[], where: string): void {
  for (const secret of secrets) {
    const needles = [secret];
    if (JWT.test(secret)) needles.push(secret.slice(secret.lastIndexOf('.') + 1));
    for (const needle of needles) {
      if (needle.length >= 8 && text.includes(needle)) {
        throw new Error(`${where} still holds a secret (${needle.length} characters); not written`);
      }
    }
  }
}
