import express, {
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
  type Router,
} from 'express';
import { parse as parseQuery, type ParsedUrlQuery } from 'node:querystring';
import type Provider from 'oidc-provider';
import { BaseError, DEFAULT_RETRY_AFTER_SECONDS, TooManyRequestsError } from '@itp/errors';
import type { Logger } from '@itp/service-kit';
import {
  oversizedAuthorizationParameter,
  oversizedParameterDescription,
} from '../oidc/authorization-bounds.js';
import type { OidcLogin, OidcPage, SiweStep } from '../oidc/oidc-login.js';
import {
  OIDC_LOGIN_SCRIPT,
  OIDC_REFERRER_POLICY,
  oidcCss,
  oidcPageCsp,
  type LoginBranding,
  renderExpiredInteractionPage,
  renderLoginPage,
  renderMessagePage,
  renderOidcErrorPage,
} from '../oidc/oidc-pages.js';
import { clientGroup } from '@itp/service-kit';
import type { FailureCounter } from '../rate-limit/failure-counter.js';

export interface OidcRouterDeps {
  provider: Provider;
  login: OidcLogin;
  /** PUBLIC_URL (or the development default): the only origin the provider speaks for. */
  publicUrl: string;
  /** The absolute path of the pages' assets (`<issuer path>/assets/`). */
  assets: string;
  /**
   * The absolute path of the issuer (PUBLIC_URL's path + `/v2/auth/oidc`): a login page's URLs
   * are `<issuer path>/interaction/<uid>/…`, whatever URL the page was served at.
   */
  issuerPath: string;
  bodyLimitBytes: number;
  logger: Logger;
  /** The operator's branding of the login pages (LOGIN_PAGE_*): none, the plain pages. */
  branding?: LoginBranding;
  /**
   * Authorization requests one client address (IPv6: its /64) may make per window
   * (OIDC_AUTHORIZATIONS_PER_IP_PER_MINUTE): each one stores an Interaction in Redis for the
   * login page's lifetime. None: no limit.
   */
  authorizationsPerIp?: FailureCounter | undefined;
}

/**
 * Headers of every answer under the issuer: a strict CSP (img-src with the operator's logo
 * origin, when one is configured), nothing sniffed or framed, no referrer
 * to other origins. `same-origin`, not `no-referrer`: under `no-referrer` a browser sends
 * `Origin: null` with the login form's POST (Fetch: serializing a request origin), which
 * sameOrigin below refuses (403).
 */
function pageHeaders(branding: LoginBranding = {}): RequestHandler {
  const csp = oidcPageCsp(branding);
  return (_req, res, next) => {
    res.setHeader('Content-Security-Policy', csp);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Referrer-Policy', OIDC_REFERRER_POLICY);
    next();
  };
}

/**
 * Every request is seen by the provider as made to PUBLIC_URL (its URLs, its cookies' `secure`),
 * whatever Host or X-Forwarded-* the caller sent: the issuer is configuration, not input.
 */
function publicView(publicUrl: string): RequestHandler {
  const url = new URL(publicUrl);
  const proto = url.protocol.slice(0, -1);
  const prefix = url.pathname.replace(/\/+$/, '');
  return (req, _res, next) => {
    req.headers['x-forwarded-proto'] = proto;
    req.headers['x-forwarded-host'] = url.host;
    if (prefix && !req.originalUrl.startsWith(`${prefix}/`)) {
      req.originalUrl = `${prefix}${req.originalUrl}`;
    }
    next();
  };
}

/**
 * A form post must come from the provider's own pages: with an Origin header (every current
 * browser sends one on a POST) it must be PUBLIC_URL's origin. The interaction cookie binds the
 * post to the browser that opened the page as well (oidc-provider checks it).
 */
function sameOrigin(publicUrl: string): RequestHandler {
  const origin = new URL(publicUrl).origin;
  return (req, res, next) => {
    const given = req.headers.origin;
    if (given !== undefined && given !== origin) {
      res.status(403).type('text/plain').send('Cross-origin form posts are refused');
      return;
    }
    next();
  };
}

const clientIpOf = (req: Request): string => req.ip ?? req.socket.remoteAddress ?? '';

/**
 * RFC 8414 §3: the authorization server metadata of the issuer `<origin>/v2/auth/oidc`, its path
 * inserted after the host (where OAuth 2.0 clients look; the gateway routes it to auth-service).
 */
export const OIDC_AUTHORIZATION_SERVER_METADATA_PATH =
  '/.well-known/oauth-authorization-server/v2/auth/oidc';

/**
 * Mounted at OIDC_AUTHORIZATION_SERVER_METADATA_PATH ahead of the provider's router: the request
 * goes on as the discovery request `/v2/auth/oidc/.well-known/openid-configuration`, so the
 * answer is the provider's discovery document (a superset of RFC 8414's metadata: the same
 * issuer and endpoints) — one document at both locations.
 */
export const authorizationServerMetadata: RequestHandler = (req, _res, next) => {
  req.url = '/v2/auth/oidc/.well-known/openid-configuration';
  req.originalUrl = req.url;
  next();
};

/** An answer of the authorization endpoint's guard: a page, never a redirect. */
function sendGuardPage(
  res: Response,
  status: number,
  html: string,
  retryAfterSeconds?: number,
): void {
  res.setHeader('Cache-Control', 'no-store');
  if (retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(retryAfterSeconds));
  res.status(status).type('html').send(html);
}

/** The query parameters of a request as the provider reads them (node:querystring, as koa). */
function queryParams(req: Request): ParsedUrlQuery {
  const query = req.url.indexOf('?');
  return query === -1 ? {} : parseQuery(req.url.slice(query + 1));
}

/**
 * In front of the provider's authorization endpoint (`GET /auth`; it takes no POST: oidc-provider's
 * enableHttpPostMethods is off), which stores an Interaction in Redis for every request it
 * accepts (docs/api.md §9):
 * - a parameter longer than its bound (authorization-bounds.ts) is refused with 400
 *   `invalid_request` on an error page (never redirected: the redirect_uri is not checked yet),
 *   before anything is stored or counted;
 * - then each request counts against its client address's limit (`authorizationsPerIp`); over
 *   it, 429 with Retry-After on a page, and the provider never sees the request. Should the
 *   counter's store be unreachable, the provider answers (it stores nothing then either).
 */
function authorizationGuard(deps: OidcRouterDeps): RequestHandler {
  return (req, res, next) => {
    const guard = async (): Promise<boolean> => {
      const oversized = oversizedAuthorizationParameter(queryParams(req));
      if (oversized !== undefined) {
        const out = {
          error: 'invalid_request',
          error_description: oversizedParameterDescription(oversized),
        };
        sendGuardPage(res, 400, renderOidcErrorPage(deps.assets, out));
        return false;
      }
      await deps.authorizationsPerIp?.take(clientGroup(clientIpOf(req)));
      return true;
    };
    guard().then(
      (pass) => {
        if (pass) next();
      },
      (err: unknown) => {
        if (err instanceof TooManyRequestsError) {
          const seconds = err.retryAfterSeconds;
          const message = `Too many login requests from your network: try again in ${seconds} seconds`;
          sendGuardPage(res, 429, renderMessagePage(deps.assets, 'Login', message), seconds);
          return;
        }
        // The counter's store (Redis) unreachable: the provider answers, as without the limit —
        // it cannot store an Interaction either, and sends temporarily_unavailable back to a
        // verified redirect URI (RFC 6749 §4.1.2.1).
        if (err instanceof BaseError && err.status === 503) {
          next();
          return;
        }
        next(err);
      },
    );
  };
}

function sendPage(
  res: Response,
  page: OidcPage,
  paths: { assets: string; issuerPath: string; branding?: LoginBranding },
): void {
  res.setHeader('Cache-Control', 'no-store');
  if (page.kind === 'redirect') {
    res.redirect(303, page.location);
    return;
  }
  if (page.kind === 'login' && page.retryAfterSeconds !== undefined) {
    res.setHeader('Retry-After', String(page.retryAfterSeconds));
  }
  const { assets, issuerPath, branding } = paths;
  const html =
    page.kind === 'expired'
      ? renderExpiredInteractionPage(
          assets,
          page.restart && {
            startAgain: `${issuerPath}/auth?${page.restart.query}`,
            ...(page.restart.clientName ? { clientName: page.restart.clientName } : {}),
            ...(page.restart.siteUrl ? { siteUrl: page.restart.siteUrl } : {}),
          },
          branding,
        )
      : renderLoginPage({
          ...page.view,
          assets,
          interaction: `${issuerPath}/interaction/${encodeURIComponent(page.view.uid)}`,
          ...(branding ? { branding } : {}),
        });
  res.status(page.status).type('html').send(html);
}

/**
 * `/v2/auth/oidc` (docs/api.md §9): the login pages of the provider's interactions, then the
 * provider itself (discovery, authorization, token, userinfo, JWKS, end-session):
 * - `GET  interaction/:uid`: the login page (password form, the phone app's and a wallet's QR,
 *   Sign-In with Ethereum); its URLs are absolute paths, so the same page answering a refused
 *   form post (at `interaction/:uid/login`) keeps every way in working;
 * - `POST interaction/:uid/login`: the password form (auth-user's rate limits);
 * - `POST interaction/:uid/abort`: the page's cancel button: back to the site with
 *   `error=access_denied` (and its state);
 * - `POST interaction/:uid/siwe/message`, `interaction/:uid/siwe`: Sign-In with Ethereum's steps;
 * - `POST interaction/:uid/passkey/options`, `interaction/:uid/passkey`: a passkey's steps;
 * - `POST interaction/:uid/qr`: the page's QR logins, made when its script asks (ADR 0036);
 * - `GET  interaction/:uid/status`: the page's poll of its QR logins
 *   (`pending`, `done` + `redirectTo`, `expired`, `refused` + `message`);
 * - `GET  assets/oidc.css`, `assets/login.js`.
 */
export function oidcRouter(deps: OidcRouterDeps): Router {
  const { login, assets } = deps;
  const router = express.Router();
  router.use(publicView(deps.publicUrl), pageHeaders(deps.branding));

  const asset =
    (type: string, body: string): RequestHandler =>
    (_req, res) => {
      res.setHeader('Cache-Control', 'public, max-age=300');
      res.type(type).send(body);
    };
  router.get('/assets/oidc.css', asset('text/css', oidcCss(deps.branding)));
  router.get('/assets/login.js', asset('text/javascript', OIDC_LOGIN_SCRIPT));

  // The provider's authorization endpoint: bounded parameters, limited per client address.
  router.get('/auth', authorizationGuard(deps));

  const page =
    (handler: (req: Request, res: Response) => Promise<OidcPage>): RequestHandler =>
    (req, res, next) => {
      handler(req, res).then(
        (result) =>
          sendPage(res, result, {
            assets,
            issuerPath: deps.issuerPath,
            ...(deps.branding ? { branding: deps.branding } : {}),
          }),
        next,
      );
    };

  router.get(
    '/interaction/:uid',
    page((req, res) => login.showPage(req, res, String(req.params.uid))),
  );
  router.post(
    '/interaction/:uid/login',
    sameOrigin(deps.publicUrl),
    express.urlencoded({ extended: false, limit: deps.bodyLimitBytes, parameterLimit: 10 }),
    page((req, res) => {
      const body = (req.body ?? {}) as Record<string, unknown>;
      return login.submitPassword(req, res, String(req.params.uid), {
        id: typeof body.id === 'string' ? body.id : '',
        password: typeof body.password === 'string' ? body.password : '',
        clientIp: clientIpOf(req),
      });
    }),
  );
  // The page's cancel button: the site gets access_denied (CSRF: the origin check, the cookie).
  router.post(
    '/interaction/:uid/abort',
    sameOrigin(deps.publicUrl),
    page((req, res) => login.cancel(req, res, String(req.params.uid))),
  );
  const siweJson = express.json({ limit: deps.bodyLimitBytes });
  const sendStep = (res: Response, step: SiweStep) => {
    res.setHeader('Cache-Control', 'no-store');
    if ('retryAfterSeconds' in step && step.retryAfterSeconds !== undefined) {
      res.setHeader('Retry-After', String(step.retryAfterSeconds));
    }
    res.status(step.status).json(step.body);
  };
  const bodyOf = (req: Request) =>
    (typeof req.body === 'object' && req.body !== null ? req.body : {}) as Record<string, unknown>;
  router.post(
    '/interaction/:uid/siwe/message',
    sameOrigin(deps.publicUrl),
    siweJson,
    (req, res, next) => {
      login
        .siweMessage(req, res, String(req.params.uid), bodyOf(req).address, clientIpOf(req))
        .then((step) => sendStep(res, step), next);
    },
  );
  router.post('/interaction/:uid/siwe', sameOrigin(deps.publicUrl), siweJson, (req, res, next) => {
    const body = bodyOf(req);
    login
      .submitSiwe(
        req,
        res,
        String(req.params.uid),
        { message: body.message, signature: body.signature },
        clientIpOf(req),
      )
      .then((step) => sendStep(res, step), next);
  });
  router.post(
    '/interaction/:uid/passkey/options',
    sameOrigin(deps.publicUrl),
    siweJson,
    (req, res, next) => {
      login
        .passkeyOptions(req, res, String(req.params.uid))
        .then((step) => sendStep(res, step), next);
    },
  );
  router.post(
    '/interaction/:uid/passkey',
    sameOrigin(deps.publicUrl),
    siweJson,
    (req, res, next) => {
      login
        .submitPasskey(req, res, String(req.params.uid), bodyOf(req).response, clientIpOf(req))
        .then((step) => sendStep(res, step), next);
    },
  );
  router.post('/interaction/:uid/qr', sameOrigin(deps.publicUrl), (req, res, next) => {
    login
      .qrLogins(req, res, String(req.params.uid), clientIpOf(req))
      .then((step) => sendStep(res, step), next);
  });
  router.get('/interaction/:uid/status', (req, res, next) => {
    login.pollQr(req, res, String(req.params.uid)).then((status) => {
      res.setHeader('Cache-Control', 'no-store');
      res.json(status);
    }, next);
  });

  // What the login routes could not answer themselves: a page, never a stack trace.
  router.use(
    '/interaction',
    (err: unknown, req: Request, res: Response, next: NextFunction): void => {
      if (res.headersSent) {
        next(err);
        return;
      }
      const status =
        err instanceof BaseError
          ? err.status
          : ((err as { status?: number; statusCode?: number }).status ?? 500);
      if (status >= 500) deps.logger.error({ err, path: req.path }, 'OIDC login page failed');
      if (status === 503) res.setHeader('Retry-After', String(DEFAULT_RETRY_AFTER_SECONDS));
      res.setHeader('Cache-Control', 'no-store');
      const message =
        status === 413
          ? 'The form was larger than the limit'
          : status < 500
            ? 'The form could not be read'
            : status === 503
              ? 'Login is unavailable right now; try again later'
              : 'Something went wrong; try again';
      if (req.path.endsWith('/status')) {
        res.status(status).json({ status: 'refused', message });
        return;
      }
      if (/\/(siwe(\/message)?|passkey(\/options)?|qr)$/.test(req.path)) {
        res.status(status).json({ error: message });
        return;
      }
      res
        .status(status)
        .type('html')
        .send(renderMessagePage(assets, 'Login', message));
    },
  );

  router.use(deps.provider.callback());
  return router;
}
