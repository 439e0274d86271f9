export interface CompactJwsParts {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
  /** `header.payload` as received: what the signature signs. */
  signingInput: string;
  signature: string;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** The parts of a compact JWS whose header and payload are JSON objects, or undefined. */
export function splitCompactJws(jws: string): CompactJwsParts | undefined {
  const parts = jws.split('.');
  if (parts.length !== 3 || parts.some((part) => !BASE64URL.test(part))) return undefined;
  const [header, payload, signature] = parts as [string, string, string];
  const decodedHeader = parseJsonObject(header);
  const decodedPayload = parseJsonObject(payload);
  if (decodedHeader === undefined || decodedPayload === undefined) return undefined;
  return {
    header: decodedHeader,
    payload: decodedPayload,
    signingInput: `${header}.${payload}`,
    signature,
  };
}

function parseJsonObject(part: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
