import type { ClientCredentials } from '../types.js';

/** `Basic base64(clientId:clientSecret)` (UTF-8), without Buffer so it runs in browsers too. */
export function basicAuthorization({ clientId, clientSecret }: ClientCredentials): string {
  const bytes = new TextEncoder().encode(`${clientId}:${clientSecret}`);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `Basic ${btoa(binary)}`;
}
