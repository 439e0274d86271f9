import { createHash } from 'node:crypto';

/** base64url(SHA-256(ASCII text)): a disclosure's digest, a KB-JWT's `sd_hash`. */
export function sha256Base64url(text: string): string {
  return createHash('sha256').update(text, 'ascii').digest('base64url');
}
