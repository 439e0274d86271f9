/** The parts of an HTTP request this helper reads (node's IncomingMessage and express' Request fit). */
export interface RequestWithHeaders {
  headers: Record<string, string | string[] | undefined>;
}

/** RFC 6750 `b64token` (the characters a bearer token may use). */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/**
 * The token of an `Authorization: Bearer <token>` header (scheme case-insensitive), or undefined
 * when the header is missing, uses another scheme, or does not hold a well-formed token.
 */
export function bearerToken(req: RequestWithHeaders): string | undefined {
  const header = req.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer[ ]+(\S+)[ ]*$/i.exec(header);
  const token = match?.[1];
  return token !== undefined && B64TOKEN.test(token) ? token : undefined;
}
