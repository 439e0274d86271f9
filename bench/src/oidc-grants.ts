/**
 * The oidc-grants scenario's flows: what a relying party does after a login — refresh-token grants
 * (rotated on every use) and, for a browser that has a session at the provider, an authorization
 * request answered at once with a code and that code's exchange.
 */
import { randomBytes } from 'node:crypto';
import { CookieJar, plainRequest, type PlainAnswer } from '@itp/testing/cookie-jar';
import {
  authorizationUrl,
  formAction,
  jwtPayload,
  passwordFormPost,
  pkcePair,
  rebase,
  type OidcClient,
  type OidcEndpoints,
} from '@itp/testing/oidc-password-flow';
import { basicAuth } from './oidc-flow.js';

/** A browser logged in at the provider (its cookies) and the refresh token its login gave. */
export interface OfflineLogin {
  jar: CookieJar;
  refreshToken: string;
}

interface Tokens {
  id_token?: string;
  access_token?: string;
  refresh_token?: string;
}

/**
 * POST to the token endpoint as the relying party (HTTP Basic; undici's request API, as every
 * request of these flows: see oidc-flow.ts); throws unless 200.
 */
async function tokenRequest(
  endpoints: OidcEndpoints,
  client: OidcClient,
  form: Record<string, string>,
): Promise<Tokens> {
  const res = await plainRequest(endpoints.token, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: basicAuth(client),
    },
    body: new URLSearchParams(form).toString(),
  });
  const tokens = (await res.json()) as Tokens;
  if (res.status !== 200 || !tokens.access_token) {
    throw new Error(`token request: HTTP ${res.status} ${JSON.stringify(tokens).slice(0, 200)}`);
  }
  return tokens;
}

/**
 * The code of an authorization request for `client` made by the browser `jar`: with a login page
 * in between when the browser has no session (the password form posted for `user`), at once when
 * it has one. Returns the code and the PKCE verifier that redeems it.
 */
async function authorize(
  gateway: string,
  endpoints: OidcEndpoints,
  client: OidcClient,
  jar: CookieJar,
  options: { offline: boolean; user?: { id: string; password: string } },
): Promise<{ code: string; verifier: string; nonce: string }> {
  const go = (url: string, init: RequestInit = {}) =>
    jar.request(url, {
      method: init.method,
      headers: init.headers as Record<string, string> | undefined,
      body: init.body as string | undefined,
    });
  const next = async (res: PlainAnswer, from: string, step: string) => {
    const location = res.header('location');
    await res.drain();
    if (res.status < 300 || res.status >= 400 || !location) {
      throw new Error(`${step}: HTTP ${res.status}, no redirect`);
    }
    return rebase(location, from, endpoints.publicOrigin, gateway);
  };
  const { verifier, challenge } = pkcePair();
  const state = randomBytes(12).toString('base64url');
  const nonce = randomBytes(12).toString('base64url');
  const start = authorizationUrl(endpoints, client, {
    state,
    nonce,
    challenge,
    offline: options.offline,
  });
  let at = await next(await go(start), start, 'authorization request');
  if (!at.startsWith(client.redirectUri)) {
    if (!options.user) throw new Error('authorization request: a login page, no session');
    const page = await go(at);
    const loginUrl = new URL(formAction(await page.text()), at).href;
    const resume = await next(
      await go(loginUrl, passwordFormPost(options.user, endpoints.publicOrigin)),
      loginUrl,
      'form post',
    );
    at = await next(await go(resume), resume, 'resume');
  }
  const callback = new URL(at);
  const code = callback.searchParams.get('code');
  if (!at.startsWith(client.redirectUri) || !code || callback.searchParams.get('state') !== state) {
    throw new Error(`authorization: no code for the site (${callback.searchParams.get('error')})`);
  }
  return { code, verifier, nonce };
}

/**
 * A password login asking for offline_access (prompt=consent): the browser's session and the
 * refresh token that comes with the tokens.
 */
export async function offlineLogin(
  gateway: string,
  endpoints: OidcEndpoints,
  client: OidcClient,
  user: { id: string; password: string },
): Promise<OfflineLogin> {
  const jar = new CookieJar();
  const { code, verifier } = await authorize(gateway, endpoints, client, jar, {
    offline: true,
    user,
  });
  const tokens = await tokenRequest(endpoints, client, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: client.redirectUri,
    code_verifier: verifier,
  });
  if (!tokens.refresh_token) throw new Error('offline login: no refresh token');
  return { jar, refreshToken: tokens.refresh_token };
}

/** One refresh-token grant: the new (rotated) refresh token; throws unless 200. */
export async function refreshGrant(
  endpoints: OidcEndpoints,
  client: OidcClient,
  refreshToken: string,
): Promise<string> {
  const tokens = await tokenRequest(endpoints, client, {
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
  });
  if (!tokens.refresh_token || !tokens.id_token) throw new Error('refresh: no rotated token');
  return tokens.refresh_token;
}

/**
 * A login of a browser that has a session at the provider: the authorization request answered at
 * once with a code (no page), then the code's exchange. Returns both steps' times, ms; throws
 * unless the id_token is `userId`'s, for the client, with the request's nonce.
 */
export async function sessionCodeFlow(
  gateway: string,
  endpoints: OidcEndpoints,
  client: OidcClient,
  login: OfflineLogin,
  userId: string,
): Promise<[number, number]> {
  const t0 = performance.now();
  const { code, verifier, nonce } = await authorize(gateway, endpoints, client, login.jar, {
    offline: false,
  });
  const t1 = performance.now();
  const tokens = await tokenRequest(endpoints, client, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: client.redirectUri,
    code_verifier: verifier,
  });
  const claims = jwtPayload(tokens.id_token ?? '');
  if (claims.sub !== userId || claims.nonce !== nonce || claims.aud !== client.id) {
    throw new Error('code exchange: an id_token of another user, client or nonce');
  }
  return [t1 - t0, performance.now() - t1];
}
