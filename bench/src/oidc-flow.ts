/**
 * The oidc scenario (8): a password login as a browser and a relying party make it, and what the
 * benchmark adds — the stack's auth-service environment and a registered client. The flow is
 * @itp/testing's (`oidc-password-flow`: the same requests, checks and steps) on the jar's
 * `request` (undici's request API, keep-alive pools) instead of fetch: the load generator shares
 * the measured cores, and fetch cost it ~5 ms of CPU per flow (bench/README.md).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { runAuthCli } from '@itp/harness';
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

export {
  FLOW_STEPS,
  discover,
  formAction,
  jwtPayload,
  pkcePair,
  rebase,
  s256,
  type OidcClient,
  type OidcEndpoints,
} from '@itp/testing/oidc-password-flow';

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
 * One whole password login (@itp/testing's `passwordFlow`, on the jar's `request`): returns the
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

/**
 * The environment of process `pid` (/proc/<pid>/environ; a process of this user). The stack's
 * auth-service has DATA_DIR, APP_ENV and, outside development, DATABASE_URL in it: what its
 * operator CLI needs to reach the same database.
 */
export function environmentOf(pid: number): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0')) {
    const eq = line.indexOf('=');
    if (eq > 0) env[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return env;
}

/**
 * Registers a relying party with redirect URI `redirectUri` in the stack's auth-service the way an
 * operator does: auth-service's CLI (`clients add … --redirect-uri …`), pointed at the service's
 * database (its APP_ENV, DATA_DIR and DATABASE_URL). The secret is random and given on stdin.
 */
export async function addOidcClient(
  authEnv: Record<string, string>,
  redirectUri: string,
): Promise<OidcClient> {
  const id = `bench-oidc-${randomBytes(4).toString('hex')}`;
  const secret = randomBytes(24).toString('base64url');
  const prefix = `${new URL(redirectUri).origin}/`;
  const env: { APP_ENV?: string; DATA_DIR?: string; DATABASE_URL?: string } = {};
  for (const name of ['APP_ENV', 'DATA_DIR', 'DATABASE_URL'] as const) {
    if (authEnv[name]) env[name] = authEnv[name];
  }
  const args = ['clients', 'add', id, '--name', 'Benchmark site', '--prefix', prefix];
  args.push('--redirect-uri', redirectUri, '--secret-stdin');
  await runAuthCli(args, env, `${secret}\n`);
  return { id, secret, redirectUri };
}
