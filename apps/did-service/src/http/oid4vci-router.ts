import express, { type Request, type Response, type Router } from 'express';
import { TooManyRequestsError } from '@itp/errors';
import { jsonBody, oauthErrorHandler, type Logger, type OAuthRefusal } from '@itp/service-kit';
import { DPOP_SIGNING_ALGS } from '../oid4vci/dpop-proofs.js';
import {
  OID4VCI_ISSUER_PATH,
  type Oid4vciAnswer,
  type Oid4vciIssuance,
} from '../oid4vci/oid4vci-issuance.js';
import { PROFILE_VCT_PATH } from '../oid4vci/sd-jwt-profile-type.js';
import { Oid4vciError } from '../oid4vci/oid4vci-error.js';
import type { RateLimit, RateLimiter } from '@itp/stores';

export interface Oid4vciRouterDeps {
  issuance: Oid4vciIssuance;
  bodyLimitBytes: number;
  logger: Logger;
  /**
   * The nonce endpoint's limit per client address (OID4VCI_NONCES_PER_IP_PER_MINUTE): an
   * anonymous caller cannot fill Redis with c_nonces. Absent: off.
   */
  /** The nonce endpoint's per-client-address limit (OID4VCI_NONCES_PER_IP_PER_MINUTE). */
  noncesPerAddress?: { limiter: RateLimiter; limit: RateLimit };
}

/** The caller's address as express determined it (honouring TRUST_PROXY). */
const clientAddress = (req: Request): string => req.ip ?? req.socket.remoteAddress ?? 'unknown';

/** Where a wallet looks for the metadata of the issuer `<origin>/v2/did/oid4vci` (RFC 8615 path insertion). */
export const OID4VCI_WELL_KNOWN_PATHS = {
  credentialIssuer: `/.well-known/openid-credential-issuer${OID4VCI_ISSUER_PATH}`,
  authorizationServer: `/.well-known/oauth-authorization-server${OID4VCI_ISSUER_PATH}`,
} as const;

/**
 * The router's own refusals (Oid4vciError); a 401 names the error in `WWW-Authenticate`. A limit
 * (TooManyRequestsError) is 429 `slow_down` with Retry-After.
 */
function oid4vciRefusal(err: unknown): OAuthRefusal | undefined {
  if (err instanceof TooManyRequestsError) {
    return {
      status: 429,
      body: {
        error: 'slow_down',
        error_description: `Too many requests from this address; try again in ${err.retryAfterSeconds} s`,
      },
      headers: { 'Retry-After': String(err.retryAfterSeconds) },
    };
  }
  if (!(err instanceof Oid4vciError)) return undefined;
  const headers: Record<string, string> = {};
  if (err.status === 401) {
    const scheme = err.options.scheme ?? 'Bearer';
    headers['WWW-Authenticate'] =
      scheme === 'DPoP'
        ? `DPoP error="${err.error}", algs="${DPOP_SIGNING_ALGS.join(' ')}"`
        : `Bearer error="${err.error}"`;
  }
  if (err.options.dpopNonce) headers['DPoP-Nonce'] = err.options.dpopNonce;
  return {
    status: err.status,
    body: err.body,
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
  };
}

/** Sends an endpoint's answer with its `DPoP-Nonce` (RFC 9449 §8), never cached. */
function sendAnswer(res: Response, answer: Oid4vciAnswer<unknown>): void {
  res.setHeader('Cache-Control', 'no-store');
  if (answer.dpopNonce) res.setHeader('DPoP-Nonce', answer.dpopNonce);
  res.json(answer.body);
}

/**
 * The credential issuer `<PUBLIC_URL>/v2/did/oid4vci` (contract §10, docs/api.md §10): what a
 * wallet calls, no user authentication (the offer id, the pre-authorized code and the access
 * token are the capabilities). Metadata at the well-known paths of OpenID4VCI 1.0 §12.2.2 and
 * RFC 8414 (path inserted after the host; the gateway routes them to did-service) and,
 * for older wallets, appended to the issuer.
 */
export function oid4vciRouter(deps: Oid4vciRouterDeps): Router {
  const router = express.Router();
  const { issuance } = deps;
  const base = OID4VCI_ISSUER_PATH;
  const form = express.urlencoded({
    extended: false,
    limit: deps.bodyLimitBytes,
    type: 'application/x-www-form-urlencoded',
  });
  const json = jsonBody({ limit: deps.bodyLimitBytes });

  const credentialIssuerMetadata: express.RequestHandler = (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.json(issuance.credentialIssuerMetadata());
  };
  const authorizationServerMetadata: express.RequestHandler = (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.json(issuance.authorizationServerMetadata());
  };
  router.get(OID4VCI_WELL_KNOWN_PATHS.credentialIssuer, credentialIssuerMetadata);
  router.get(`${base}/.well-known/openid-credential-issuer`, credentialIssuerMetadata);
  router.get(OID4VCI_WELL_KNOWN_PATHS.authorizationServer, authorizationServerMetadata);
  router.get(`${base}/.well-known/oauth-authorization-server`, authorizationServerMetadata);

  router.get(`${base}/offer/:id`, async (req, res) => {
    const offer = await issuance.takeOffer(req.params.id);
    res.setHeader('Cache-Control', 'no-store');
    res.type('application/json').status(200).end(offer);
  });

  router.post(`${base}/token`, form, async (req, res) => {
    if (!req.is('application/x-www-form-urlencoded')) {
      throw new Oid4vciError(
        400,
        'invalid_request',
        'The token request is application/x-www-form-urlencoded',
      );
    }
    const answer = await issuance.token((req.body ?? {}) as Record<string, unknown>, {
      method: req.method,
      url: `${issuance.issuer}/token`,
      headers: req.headers,
    });
    sendAnswer(res, answer);
  });

  router.post(`${base}/nonce`, async (req, res) => {
    const nonces = deps.noncesPerAddress;
    await nonces?.limiter.take(nonces.limit, clientAddress(req));
    res.setHeader('Cache-Control', 'no-store');
    res.json(await issuance.nonce());
  });

  router.post(`${base}/credential`, json, async (req, res) => {
    const answer = await issuance.credential(
      { method: req.method, url: `${issuance.issuer}/credential`, headers: req.headers },
      req.body,
    );
    sendAnswer(res, answer);
  });

  // The SD-JWT VC type metadata its credentials' `vct` names (draft-ietf-oauth-sd-jwt-vc §6).
  router.get(PROFILE_VCT_PATH, (_req, res) => {
    const metadata = issuance.typeMetadata();
    if (!metadata) throw new Oid4vciError(404, 'invalid_request', 'No such credential type');
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.type('application/json').json(metadata);
  });

  router.use(base, oauthErrorHandler(deps.logger, oid4vciRefusal));
  router.use('/.well-known', oauthErrorHandler(deps.logger, oid4vciRefusal));
  return router;
}
