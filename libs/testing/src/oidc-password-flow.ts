/**
 * An OpenID Connect password login as a browser and a relying party make it, on undici's request
 * API (manual redirects, a cookie jar per flow: CookieJar.request) and PKCE S256 from node:crypto: authorization request
 * → login page → form post → code → token. Each step is timed (the benchmark names where a
 * flow's time goes; argon2 is in the form post). Used by the benchmark's oidc scenario and the
 * API examples recorder (a grant to show and end).
 */
import { createHash, randomBytes } from 'node:crypto';
import { CookieJar, plainRequest, type PlainAnswer } from './cookie-jar.js';

/** The steps of one flow, in order; `times` of a flow has one entry per step (ms). */
export const FLOW_STEPS = [
  'authorization request → login page (2 requests)',
  'form post (password check) → redirect',
  'resume → redirect to redirect_uri with the code',
  'token request (code + code_verifier, Basic client auth)',
] as const;

/** The provider's endpoints, rebased onto the gateway the load goes to. */
export interface OidcEndpoints {
  issuer: string;
  /** PUBLIC_URL's origin: the Origin of the form post (the provider refuses any other). */
  publicOrigin: string;
  authorization: string;
  token: string;
}

export interface OidcClient {
  id: string;
  secret: string;
  redirectUri: string;
}

/** RFC 7636 §4: a code_verifier (43 characters) and its S256 challenge. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: s256(verifier) };
}

export const s256 = (verifier: string): string =>
  createHash('sha256').update(verifier).digest('base64url');

/**
 * `url` with PUBLIC_URL's origin replaced by the gateway's: the provider names its URLs by
 * PUBLIC_URL; the benchmark reaches the same paths on loopback. Relative URLs resolve against
 * `base` (the URL that answered).
 */
export function rebase(url: string, base: string, publicOrigin: string, gateway: string): string {
  const absolute = new URL(url, base);
  if (absolute.origin !== publicOrigin) return absolute.href;
  return `${gateway}${absolute.pathname}${absolute.search}`;
}

/** Reads discovery through the gateway. */
export async function discover(gateway: string): Promise<OidcEndpoints> {
  const res = await fetch(`${gateway}/v2/auth/oidc/.well-known/openid-configuration`);
  if (!res.ok) throw new Error(`OIDC discovery: HTTP ${res.status}`);
  const meta = (await res.json()) as {
    issuer: string;
    authorization_endpoint: string;
    token_endpoint: string;
  };
  const publicOrigin = new URL(meta.issuer).origin;
  const at = (url: string) => rebase(url, meta.issuer, publicOrigin, gateway);
  return {
    issuer: meta.issuer,
    publicOrigin,
    authorization: at(meta.authorization_endpoint),
    token: at(meta.token_endpoint),
  };
}

/**
 * The authorization request of a login (PKCE S256): scope `openid profile`, with `offline`
 * also offline_access and prompt=consent (a refresh token comes with the tokens).
 */
export function authorizationUrl(
  endpoints: OidcEndpoints,
  client: OidcClient,
  request: { state: string; nonce: string; challenge: string; offline?: boolean },
): string {
  return `${endpoints.authorization}?${new URLSearchParams({
    client_id: client.id,
    redirect_uri: client.redirectUri,
    response_type: 'code',
    scope: request.offline ? 'openid profile offline_access' : 'openid profile',
    ...(request.offline ? { prompt: 'consent' } : {}),
    state: request.state,
    nonce: request.nonce,
    code_challenge: request.challenge,
    code_challenge_method: 'S256',
  })}`;
}

/** The login page's password form as a browser posts it (from the provider's origin). */
export function passwordFormPost(
  user: { id: string; password: string },
  publicOrigin: string,
): RequestInit {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: publicOrigin },
    body: new URLSearchParams({ id: user.id, password: user.password }).toString(),
  };
}

/** The action of the login page's password form (`<uid>/login`, relative to the page). */
export function formAction(html: string): string {
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  if (!action) throw new Error('the login page has no password form');
  return action.replace(/&amp;/g, '&');
}

/** The payload of a JWT, not verified (the flow checks sub, nonce and aud of its own id_token). */
export function jwtPayload(jwt: string): Record<string, unknown> {
  const payload = jwt.split('.')[1];
  if (!payload) throw new Error('not a JWT');
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
}

/** The `Location` of a redirect (its body dropped); throws unless the answer is one. */
export async function expectRedirect(res: PlainAnswer, step: string): Promise<string> {
  const location = res.header('location');
  await res.drain();
  if (res.status < 300 || res.status >= 400 || !location) {
    throw new Error(`${step}: HTTP ${res.status}, no redirect`);
  }
  return location;
}

/** The relying party's HTTP Basic authorization. */
export const basicAuth = (client: OidcClient): string =>
  `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`;

/**
 * One whole password login, on the jar's `request` (undici's request API, keep-alive pools; a
 * benchmark's load generator shares the measured cores, and fetch costs ~2× its CPU): returns the
 * time of each step (FLOW_STEPS), ms. Throws when any step answers otherwise than a successful
 * login does, or when the id_token is not the user's, for this client, with this flow's nonce.
 */
export async function passwordFlow(
  gateway: string,
  endpoints: OidcEndpoints,
  client: OidcClient,
  user: { id: string; password: string },
): Promise<number[]> {
  const jar = new CookieJar();
  const times: number[] = [];
  let t0 = performance.now();
  const lap = () => {
    const now = performance.now();
    times.push(now - t0);
    t0 = now;
  };
  const follow = (location: string, from: string) =>
    rebase(location, from, endpoints.publicOrigin, gateway);

  // 1. The authorization request (303 to the login page), the login page.
  const { verifier, challenge } = pkcePair();
  const state = randomBytes(12).toString('base64url');
  const nonce = randomBytes(12).toString('base64url');
  const authorize = authorizationUrl(endpoints, client, { state, nonce, challenge });
  const pageUrl = follow(
    await expectRedirect(await jar.request(authorize), 'authorization request'),
    authorize,
  );
  const page = await jar.request(pageUrl);
  const html = await page.text();
  if (page.status !== 200) throw new Error(`login page: HTTP ${page.status}`);
  lap();

  // 2. The password form, posted from the provider's origin.
  const loginUrl = new URL(formAction(html), pageUrl).href;
  const form = passwordFormPost(user, endpoints.publicOrigin);
  const resume = follow(
    await expectRedirect(
      await jar.request(loginUrl, {
        method: 'POST',
        headers: form.headers as Record<string, string>,
        body: form.body as string,
      }),
      'form post',
    ),
    loginUrl,
  );
  lap();

  // 3. The provider resumes the authorization: a redirect to redirect_uri with the code.
  const callback = new URL(await expectRedirect(await jar.request(resume), 'resume'), resume);
  if (!callback.href.startsWith(client.redirectUri)) {
    throw new Error(`resume: redirected to ${callback.origin}${callback.pathname}, not the site`);
  }
  const code = callback.searchParams.get('code');
  if (!code || callback.searchParams.get('state') !== state) {
    throw new Error(`resume: no code or another state (${callback.searchParams.get('error')})`);
  }
  lap();

  // 4. The relying party redeems the code (no cookies: a server-to-server call).
  const res = await plainRequest(endpoints.token, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: basicAuth(client),
    },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: client.redirectUri,
      code_verifier: verifier,
    }).toString(),
  });
  const tokens = (await res.json()) as { id_token?: string; access_token?: string };
  if (res.status !== 200 || !tokens.id_token || !tokens.access_token) {
    throw new Error(`token request: HTTP ${res.status} ${JSON.stringify(tokens).slice(0, 200)}`);
  }
  const claims = jwtPayload(tokens.id_token);
  if (claims.sub !== user.id || claims.nonce !== nonce || claims.aud !== client.id) {
    throw new Error('token request: an id_token of another user, client or nonce');
  }
  lap();
  return times;
}
