import { DemoSiteError } from './demo-site-error.js';

/** What auth-service answered one call of the demo site. */
export interface AuthAnswer {
  status: number;
  body: Record<string, unknown>;
  retryAfter: string | null;
}

/**
 * One POST of the demo site's server to auth-service's `/v2/auth/<endpoint>` with its HTTP Basic
 * credentials (`authorization`), as a registered site calls it; unreachable: DemoSiteError 503.
 */
export async function callAuthService(
  authServiceUrl: string,
  authorization: string,
  endpoint: string,
  body: unknown,
): Promise<AuthAnswer> {
  let res: Response;
  try {
    res = await fetch(`${authServiceUrl.replace(/\/+$/, '')}/v2/auth/${endpoint}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
  } catch {
    throw new DemoSiteError('auth-service cannot be reached', 503);
  }
  const parsed: unknown = await res.json().catch(() => ({}));
  return {
    status: res.status,
    body: typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {},
    retryAfter: res.headers.get('retry-after'),
  };
}

/** The REST error's message of an answer (`{ error: { message } }`), or a placeholder. */
export function authErrorMessage(answer: AuthAnswer): string {
  const error = answer.body.error as { message?: unknown } | undefined;
  return typeof error?.message === 'string' ? error.message : 'no error message';
}

/** The `Authorization` header of HTTP Basic client credentials. */
export function basicAuthorization(clientId: string, clientSecret: string): string {
  return `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
}
