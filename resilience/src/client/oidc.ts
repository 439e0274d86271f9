/**
 * The relying party's and the browser's side of an OpenID Connect password login, with plain
 * fetch (manual redirects, a cookie jar per browser, PKCE S256), stopped where the suite needs
 * it: the authorization code in hand but not redeemed, so that the code and the refresh tokens
 * can each be used at the moment a check chooses. The pieces are @itp/testing's
 * (`oidc-password-flow`, the benchmark's flow).
 */
import { randomBytes } from 'node:crypto';
import { CookieJar } from '@itp/testing/cookie-jar';
import {
  authorizationUrl,
  discover,
  formAction,
  passwordFormPost,
  pkcePair,
  rebase,
  type OidcClient,
  type OidcEndpoints,
} from '@itp/testing/oidc-password-flow';
import { parseJson } from './http.js';

export { discover, type OidcClient, type OidcEndpoints };

/** An authorization code the browser brought back, and what the site kept to redeem it. */
export interface IssuedCode {
  code: string;
  verifier: string;
}

/** A token endpoint answer: status and the parsed body (tokens, or an OAuth error). */
export interface TokenAnswer {
  status: number;
  body: {
    access_token?: string;
    refresh_token?: string;
    id_token?: string;
    error?: string;
    error_description?: string;
  };
}

/** At most this many redirects from the form post to the site's callback. */
const MAX_HOPS = 6;

/**
 * A browser logs `user` in at the provider (authorization request → login page → password form
 * → redirects) until it is sent to the site's redirect URI; the code it carries, not redeemed.
 * `offline`: scope offline_access with prompt=consent (a refresh token comes with the tokens).
 * `ip`: the X-Forwarded-For of every request (the stack trusts loopback hops).
 */
export async function authorizationCode(
  gateway: string,
  endpoints: OidcEndpoints,
  client: OidcClient,
  user: { id: string; password: string },
  options: { offline?: boolean; ip?: string } = {},
): Promise<IssuedCode> {
  const jar = new CookieJar();
  const forwarded: Record<string, string> = options.ip ? { 'x-forwarded-for': options.ip } : {};
  const go = (url: string, init: RequestInit = {}) =>
    jar.fetch(url, {
      ...init,
      headers: { ...(init.headers as Record<string, string>), ...forwarded },
    });
  const redirect = async (res: Response, step: string, from: string): Promise<string> => {
    const location = res.headers.get('location');
    await res.arrayBuffer();
    if (res.status < 300 || res.status >= 400 || !location) {
      throw new Error(`OpenID Connect ${step}: HTTP ${res.status}, no redirect`);
    }
    return rebase(location, from, endpoints.publicOrigin, gateway);
  };

  const { verifier, challenge } = pkcePair();
  const state = randomBytes(12).toString('base64url');
  const authorize = authorizationUrl(endpoints, client, {
    state,
    nonce: randomBytes(12).toString('base64url'),
    challenge,
    ...(options.offline ? { offline: true } : {}),
  });
  const pageUrl = await redirect(await go(authorize), 'authorization request', authorize);
  const page = await go(pageUrl);
  const html = await page.text();
  if (page.status !== 200) throw new Error(`OpenID Connect login page: HTTP ${page.status}`);
  const loginUrl = new URL(formAction(html), pageUrl).href;
  let next = await redirect(
    await go(loginUrl, passwordFormPost(user, endpoints.publicOrigin)),
    'form post',
    loginUrl,
  );
  for (let hop = 0; hop < MAX_HOPS && !next.startsWith(client.redirectUri); hop++) {
    next = await redirect(await go(next), 'resume', next);
  }
  const callback = new URL(next);
  const code = callback.searchParams.get('code');
  if (
    !next.startsWith(client.redirectUri) ||
    !code ||
    callback.searchParams.get('state') !== state
  ) {
    throw new Error(
      `OpenID Connect: no code for the site (${callback.searchParams.get('error') ?? callback.pathname})`,
    );
  }
  return { code, verifier };
}

/** One token request (client_secret_basic), as the site's server makes it. */
async function tokenRequest(
  endpoints: OidcEndpoints,
  client: OidcClient,
  form: Record<string, string>,
  ip?: string,
): Promise<TokenAnswer> {
  const res = await fetch(endpoints.token, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`,
      ...(ip ? { 'x-forwarded-for': ip } : {}),
    },
    body: new URLSearchParams(form).toString(),
  });
  const body = (parseJson(await res.text()) ?? {}) as TokenAnswer['body'];
  return { status: res.status, body };
}

/** The site redeems an authorization code (with its PKCE verifier). */
export function redeemCode(
  endpoints: OidcEndpoints,
  client: OidcClient,
  issued: IssuedCode,
  ip?: string,
): Promise<TokenAnswer> {
  return tokenRequest(
    endpoints,
    client,
    {
      grant_type: 'authorization_code',
      code: issued.code,
      redirect_uri: client.redirectUri,
      code_verifier: issued.verifier,
    },
    ip,
  );
}

/** The site uses a refresh token (rotation: the answer carries the next one). */
export function refresh(
  endpoints: OidcEndpoints,
  client: OidcClient,
  refreshToken: string,
  ip?: string,
): Promise<TokenAnswer> {
  return tokenRequest(
    endpoints,
    client,
    { grant_type: 'refresh_token', refresh_token: refreshToken },
    ip,
  );
}
