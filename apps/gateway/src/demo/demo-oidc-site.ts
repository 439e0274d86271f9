/**
 * `/demo/oidc`: a web site that logs its users in with OpenID Connect, written the way an
 * integrator's server does it, with the standard openid-client library (README "Add login to
 * your site in 10 lines"). It is the demo relying party `demo-site`, whose redirect URIs the dev
 * stack registers (apps/auth-service/src/dev/demo-data.ts): `/demo/oidc/callback` on
 * `localhost` and `127.0.0.1`, and `/demo/oidc` after logout.
 *
 * - `GET /demo/oidc`: the login link, or the logged-in user's claims and a logout link;
 * - `GET /demo/oidc/login`: remembers a PKCE verifier, state and nonce (server-side, see
 *   demo-oidc-sessions.ts), then redirects to the provider's authorization endpoint;
 * - `GET /demo/oidc/callback`: redeems the code (openid-client checks state, nonce, PKCE and the
 *   id_token's signature), fetches userinfo, shows both;
 * - `GET /demo/oidc/logout`: ends this site's session and sends the browser to the provider's
 *   end_session endpoint, which sends it back to `/demo/oidc`.
 */
import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import * as oidc from 'openid-client';
import { DemoOidcSessions } from './demo-oidc-sessions.js';
import { demoOidcPage, type DemoOidcView } from './demo-pages.js';
import { DEMO_SITE } from './demo-site-login.js';

const SCOPE = 'openid profile email phone';

/** Discovery failed: the provider is down or not at `issuer`. */
class ProviderUnavailable extends Error {}

export function demoOidcSite(
  /** `<PUBLIC_URL>/v2/auth/oidc` */
  issuer: string,
  headers: RequestHandler,
  sessions = new DemoOidcSessions(),
): Router {
  let discovered: Promise<oidc.Configuration> | undefined;
  /** The provider's metadata (discovery), fetched once; a failure is tried again next time. */
  const provider = (): Promise<oidc.Configuration> =>
    (discovered ??= oidc
      .discovery(
        new URL(issuer),
        DEMO_SITE.clientId,
        DEMO_SITE.clientSecret,
        undefined,
        // Plain http is refused unless allowed: the dev stack's issuer is http://127.0.0.1:<port>.
        issuer.startsWith('http:') ? { execute: [oidc.allowInsecureRequests] } : undefined,
      )
      .catch((err: unknown) => {
        discovered = undefined;
        throw new ProviderUnavailable(
          `The OpenID Connect provider at ${issuer} cannot be reached (${String(err)}).`,
        );
      }));

  const router = express.Router();

  router.get('/demo/oidc', headers, (req, res) => {
    const login = sessions.get(req)?.login;
    if (!login) return show(res, 200, { kind: 'start' });
    show(res, 200, {
      kind: 'logged-in',
      idTokenClaims: login.idTokenClaims,
      userinfo: login.userinfo,
    });
  });

  router.get('/demo/oidc/login', headers, async (req, res) => {
    const origin = browserOrigin(req);
    if (!origin) return show(res, 400, { kind: 'error', message: WRONG_HOST });
    try {
      const config = await provider();
      const pending = {
        verifier: oidc.randomPKCECodeVerifier(),
        state: oidc.randomState(),
        nonce: oidc.randomNonce(),
        redirectUri: `${origin}/demo/oidc/callback`,
      };
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: pending.redirectUri,
        scope: SCOPE,
        code_challenge: await oidc.calculatePKCECodeChallenge(pending.verifier),
        code_challenge_method: 'S256',
        state: pending.state,
        nonce: pending.nonce,
      });
      sessions.start(req, res, { pending });
      res.redirect(url.href);
    } catch (err) {
      fail(res, err);
    }
  });

  router.get('/demo/oidc/callback', headers, async (req, res) => {
    const session = sessions.get(req);
    const pending = session?.pending;
    if (!session || !pending) {
      const message = 'No login is in progress in this browser (or it expired): log in again.';
      return show(res, 400, { kind: 'error', message });
    }
    delete session.pending; // one answer per authorization request
    try {
      const config = await provider();
      const tokens = await oidc.authorizationCodeGrant(
        config,
        new URL(req.originalUrl, pending.redirectUri),
        {
          pkceCodeVerifier: pending.verifier,
          expectedState: pending.state,
          expectedNonce: pending.nonce,
        },
      );
      const idTokenClaims = tokens.claims(); // always there: the scope has openid
      if (!idTokenClaims || !tokens.id_token) throw new oidc.ClientError('no id_token');
      const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, idTokenClaims.sub);
      session.login = { idToken: tokens.id_token, idTokenClaims, userinfo };
      show(res, 200, { kind: 'logged-in', idTokenClaims, userinfo });
    } catch (err) {
      fail(res, err);
    }
  });

  router.get('/demo/oidc/logout', headers, async (req, res) => {
    const login = sessions.get(req)?.login;
    sessions.end(req, res);
    const origin = browserOrigin(req);
    if (!login || !origin) return res.redirect('/demo/oidc');
    try {
      const url = oidc.buildEndSessionUrl(await provider(), {
        id_token_hint: login.idToken,
        post_logout_redirect_uri: `${origin}/demo/oidc`,
      });
      res.redirect(url.href);
    } catch (err) {
      fail(res, err);
    }
  });

  return router;
}

const WRONG_HOST =
  'Open this demo at localhost or 127.0.0.1: only those redirect URIs are registered for demo-site.';

/**
 * The origin the browser used (its Host header), when it is one of the demo client's registered
 * redirect URI hosts; the callback must come back to it, where the session cookie is.
 */
function browserOrigin(req: Request): string | undefined {
  const host = req.headers.host ?? '';
  return /^(localhost|127\.0\.0\.1)(:\d{1,5})?$/.test(host)
    ? `${req.protocol}://${host}`
    : undefined;
}

function show(res: Response, status: number, view: DemoOidcView): void {
  res.status(status).type('html').send(demoOidcPage(view));
}

/** Errors as a readable page: what the provider or openid-client said, never a stack. */
function fail(res: Response, err: unknown): void {
  if (err instanceof oidc.AuthorizationResponseError || err instanceof oidc.ResponseBodyError) {
    const description = err.error_description ? `: ${err.error_description}` : '';
    const message = `The provider refused the login (${err.error}${description}).`;
    return show(res, 400, { kind: 'error', message });
  }
  // A 401 with a challenge (RFC 6750 / RFC 6749 §5.2): the provider refused the site itself.
  if (err instanceof oidc.WWWAuthenticateChallengeError) {
    const error = err.cause[0]?.parameters.error ?? `HTTP ${err.status}`;
    const message =
      `The provider refused the demo site's own credentials (${error}): ` +
      'check its client id and secret (auth-service CLI: clients list).';
    return show(res, 400, { kind: 'error', message });
  }
  if (err instanceof oidc.ClientError) {
    const why = err.cause instanceof Error ? ` (${err.cause.message})` : '';
    const message = `The provider's answer was not accepted: ${err.message}${why}.`;
    return show(res, 400, { kind: 'error', message });
  }
  const message =
    err instanceof ProviderUnavailable ? err.message : 'The OpenID Connect provider failed.';
  show(res, 502, { kind: 'error', message });
}
