import express, { type RequestHandler, type Router } from 'express';
import { pageCsp, qrDataUrl } from '@itp/service-kit';
import { splitUpstreamUrls, type GatewayConfig } from '../config.js';
import { DemoAgeCheck } from './demo-age-check.js';
import { demoOidcSite } from './demo-oidc-site.js';
import {
  DEMO_AGE_PAGE,
  DEMO_CSS,
  DEMO_INDEX_PAGE,
  DEMO_PASSKEYS_PAGE,
  DEMO_PHONE_PAGE,
  DEMO_SITE_PAGE,
} from './demo-pages.js';
import { readDemoScript } from './demo-scripts.js';
import {
  DemoSiteError,
  DemoSiteLogin,
  demoSiteIdentifier,
  type LoginRequest,
} from './demo-site-login.js';

/** The CSP of the demo pages: the platform's page policy, and no form posts at all. */
export const DEMO_CSP = pageCsp({ formAction: "'none'" });

const demoHeaders: RequestHandler = (_req, res, next) => {
  res.setHeader('Content-Security-Policy', DEMO_CSP);
  res.setHeader('Cache-Control', 'no-store');
  next();
};

type DemoConfig = Pick<GatewayConfig, 'APP_ENV' | 'AUTH_SERVICE_URL' | 'PUBLIC_URL' | 'PORT'>;

/** The OpenID Connect issuer behind this gateway: `<PUBLIC_URL>/v2/auth/oidc`. */
export function demoIssuer(config: Pick<GatewayConfig, 'PUBLIC_URL' | 'PORT'>): string {
  return `${config.PUBLIC_URL ?? `http://127.0.0.1:${config.PORT}`}/v2/auth/oidc`;
}

/**
 * `/demo` (development only; in any other APP_ENV nothing is mounted and /demo is a 404): a web
 * site with QR login and a phone app that approves it with a VP (README "Demo"):
 * - `GET /demo`, `/demo/site`, `/demo/phone`, `/demo/passkeys`, `/demo/age` and their script /
 *   style files (the passkeys page calls the gateway's /v2/auth API itself: login, passkeys,
 *   account);
 * - `POST /demo/api/login-request`: the site's server starts an app login (auth-user-by-app with
 *   the demo client's secret, which stays here) and answers the requestId and its QR code, and
 *   when auth-service offers one, the request's `openid4vpUri` and its QR code (`openid4vpQr`);
 * - `POST /demo/api/login-result` `{ requestId }`: one poll (auth-user-result-by-app), answered
 *   as `pending` (with `retryAfterSeconds` on `slow_down`), `approved` with the user, or `expired`;
 * - `/demo/oidc`: a site logging in through the OpenID Connect provider with openid-client
 *   (demo-oidc-site.ts);
 * - `/demo/age`: a site asking an EU Digital Identity wallet for `age_over_18` (demo-age-check.ts):
 *   `POST /demo/api/age-request` creates the presentation request with the demo client's secret
 *   and answers its `openid4vpUri`, QR code and `expiresInSeconds`; `POST /demo/api/age-result`
 *   `{ requestId }` is one poll, answered as `pending`, `verified` (issuer and format only),
 *   `not-verified` (the reason) or `expired`.
 */
export function demoRouter(config: DemoConfig): Router {
  const router = express.Router();
  if (config.APP_ENV !== 'development') return router;
  const authServiceUrl = splitUpstreamUrls(config.AUTH_SERVICE_URL)[0] ?? '';
  const login = new DemoSiteLogin(
    authServiceUrl,
    demoSiteIdentifier(config.PUBLIC_URL ?? `http://localhost:${config.PORT}`),
  );
  const ageCheck = new DemoAgeCheck(authServiceUrl);

  const page =
    (html: string): RequestHandler =>
    (_req, res) =>
      void res.type('html').send(html);
  const file =
    (type: string, text: string): RequestHandler =>
    (_req, res) =>
      void res.type(type).send(text);
  router.get(['/demo', '/demo/'], demoHeaders, page(DEMO_INDEX_PAGE));
  router.get('/demo/site', demoHeaders, page(DEMO_SITE_PAGE));
  router.get('/demo/phone', demoHeaders, page(DEMO_PHONE_PAGE));
  router.get('/demo/passkeys', demoHeaders, page(DEMO_PASSKEYS_PAGE));
  router.get('/demo/age', demoHeaders, page(DEMO_AGE_PAGE));
  router.get('/demo/site.js', demoHeaders, file('text/javascript', readDemoScript('site')));
  router.get('/demo/phone.js', demoHeaders, file('text/javascript', readDemoScript('phone')));
  router.get('/demo/passkeys.js', demoHeaders, file('text/javascript', readDemoScript('passkeys')));
  router.get('/demo/age.js', demoHeaders, file('text/javascript', readDemoScript('age')));
  router.get('/demo/demo-api.js', demoHeaders, file('text/javascript', readDemoScript('demo-api')));
  router.get('/demo/demo.css', demoHeaders, file('text/css', DEMO_CSS));
  router.use(demoOidcSite(demoIssuer(config), demoHeaders));

  const json = express.json({ limit: '4kb' });
  router.post('/demo/api/login-request', demoHeaders, async (_req, res) => {
    try {
      const request: LoginRequest = await login.start();
      const qr = await qrDataUrl(request.requestId);
      res.json(
        request.openid4vpUri === undefined
          ? { ...request, qr }
          : { ...request, qr, openid4vpQr: await qrDataUrl(request.openid4vpUri) },
      );
    } catch (err) {
      sendError(res, err);
    }
  });
  router.post('/demo/api/login-result', demoHeaders, json, async (req, res) => {
    const requestId = requestIdOf(req, res);
    if (requestId === undefined) return;
    try {
      res.json(await login.poll(requestId));
    } catch (err) {
      sendError(res, err);
    }
  });
  router.post('/demo/api/age-request', demoHeaders, async (_req, res) => {
    try {
      const request = await ageCheck.start();
      res.json({ ...request, qr: await qrDataUrl(request.openid4vpUri) });
    } catch (err) {
      sendError(res, err);
    }
  });
  router.post('/demo/api/age-result', demoHeaders, json, async (req, res) => {
    const requestId = requestIdOf(req, res);
    if (requestId === undefined) return;
    try {
      res.json(await ageCheck.poll(requestId));
    } catch (err) {
      sendError(res, err);
    }
  });
  return router;
}

/** The poll body's requestId, or undefined after answering 400. */
function requestIdOf(req: express.Request, res: express.Response): string | undefined {
  const requestId: unknown = (req.body as { requestId?: unknown } | undefined)?.requestId;
  if (typeof requestId !== 'string' || requestId.length < 1 || requestId.length > 2048) {
    res.status(400).json({ error: { code: '400', message: 'requestId must be a string' } });
    return undefined;
  }
  return requestId;
}

function sendError(res: express.Response, err: unknown): void {
  const status = err instanceof DemoSiteError ? err.status : 502;
  const message = err instanceof DemoSiteError ? err.message : 'the demo site failed';
  res.status(status).json({ error: { code: String(status), message } });
}
