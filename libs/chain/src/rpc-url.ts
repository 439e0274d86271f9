export interface RpcEndpoint {
  /** The URL without user info: fetch refuses URLs that carry credentials. */
  url: string;
  /** `Basic …` when the configured URL carried `user:password@`, else undefined. */
  authorization: string | undefined;
  username: string;
  password: string;
}

/** Splits `https://user:pass@host/path` into a credential-free URL and a Basic authorization. */
export function parseRpcUrl(rpcUrl: string): RpcEndpoint {
  const parsed = new URL(rpcUrl);
  const username = decodeURIComponent(parsed.username);
  const password = decodeURIComponent(parsed.password);
  parsed.username = '';
  parsed.password = '';
  const authorization =
    username || password
      ? `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`
      : undefined;
  return { url: parsed.toString(), authorization, username, password };
}

/**
 * The part of an RPC URL that is safe to log: scheme, host and port. Paths and queries are left
 * out as well as user info, since hosted nodes put API keys there (`/v3/<key>`).
 */
export function describeRpcUrl(rpcUrl: string): string {
  try {
    return new URL(rpcUrl).origin;
  } catch {
    return '(invalid URL)';
  }
}
