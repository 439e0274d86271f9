/** Lower-case hex SHA-256 of the UTF-8 bytes of `text` (WebCrypto: Node 20+ and browsers). */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** hashKey = hex SHA-256 of `<tempKey>|<secretKey>` (docs/api.md §4.2). */
export function hashKeyOf(tempKey: string, secretKey: string): Promise<string> {
  return sha256Hex(`${tempKey}|${secretKey}`);
}

/**
 * The hash signData signs: hex SHA-256 of the method's fields joined by `|`, ending with
 * `tempKey|hashKey` (docs/api.md §4), e.g. transfer `from|to|amount|tempKey|hashKey`.
 */
export function signingHash(
  fields: readonly string[],
  tempKey: string,
  hashKey: string,
): Promise<string> {
  return sha256Hex([...fields, tempKey, hashKey].join('|'));
}
