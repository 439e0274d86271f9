export interface BasicCredentials {
  id: string;
  secret: string;
}

/**
 * `Authorization: Basic base64(id:secret)` (RFC 7617; the id holds no colon, the secret may).
 * Undefined for a missing header, another scheme, bad base64 or an empty id or secret.
 */
export function parseBasicAuth(header: string | undefined): BasicCredentials | undefined {
  if (typeof header !== 'string') return undefined;
  const match = /^Basic[ ]+([A-Za-z0-9+/]+={0,2})[ ]*$/i.exec(header);
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return undefined;
  const id = decoded.slice(0, colon);
  const secret = decoded.slice(colon + 1);
  if (!secret || id.length > 256 || secret.length > 1024) return undefined;
  return { id, secret };
}
