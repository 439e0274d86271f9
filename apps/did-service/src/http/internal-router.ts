import { Router } from 'express';
import {
  oid4vpRequestObjectRequestSchema,
  oid4vpVerifyResponseRequestSchema,
  presentationVpVerifyRequestSchema,
  revokeUserCredentialsRequestSchema,
  verifyLoginVpRequestSchema,
} from '@itp/schemas';
import { jsonBody, parseBody, requireInternalToken } from '@itp/service-kit';
import {
  verifyLoginPresentation,
  type LoginPresentationDeps,
} from '../login/verify-login-presentation.js';
import { createRequestObject, type Oid4vpRequestDeps } from '../oid4vp/request-object.js';
import { verifyOid4vpResponse } from '../oid4vp/verify-response.js';
import type { SdJwtIssuerKeys } from '../sd-jwt-issuer/sd-jwt-issuer-key.js';
import { verifyPresentationVp } from '../oid4vp/verify-presentation-vp.js';
import {
  revokeUserCredentials,
  type RevokeUserCredentialsDeps,
} from '../status/revoke-user-credentials.js';

export interface InternalRouterDeps {
  login: LoginPresentationDeps;
  /** OpenID4VP: the request object's signer (verifier DID) and response URI policy. */
  oid4vp: Pick<Oid4vpRequestDeps, 'allowInsecureUrls' | 'sdJwtProfileVct'>;
  /** A password reset revokes the user's credentials (users/revoke-credentials). */
  userCredentials: RevokeUserCredentialsDeps;
  /** The SD-JWT VC issuer (its trust anchors); undefined: SD-JWT VC issuance is off. */
  sdJwtIssuer?: Pick<SdJwtIssuerKeys, 'trustAnchorsPem'> | undefined;
  /** The accepted bearer tokens: INTERNAL_TOKEN_AUTH_TO_DID and INTERNAL_API_ACCEPTED_TOKENS. */
  internalApiToken: string | readonly string[];
  bodyLimitBytes: number;
}

/**
 * auth-service's calls (`/internal/v1/*`, bearer INTERNAL_TOKEN_AUTH_TO_DID), mounted on the
 * internal listener only (INTERNAL_PORT): not on the public port, not routed by the gateway.
 */
export function internalRouter(deps: InternalRouterDeps): Router {
  const router = Router();
  router.use('/internal/v1', requireInternalToken(deps.internalApiToken));
  router.use('/internal/v1', jsonBody({ limit: deps.bodyLimitBytes }));

  /** 200 VerifyLoginVpResult | 400 no VP | 401 refused, the message says why. */
  router.post('/internal/v1/verify-login-vp', async (req, res) => {
    const request = parseBody(verifyLoginVpRequestSchema, req.body);
    res.json(await verifyLoginPresentation(deps.login, request.vp, request.maxAgeSeconds));
  });

  /** 200 Oid4vpRequestObjectResult | 400 bad body (responseUri http outside development / test). */
  router.post('/internal/v1/oid4vp/request-object', async (req, res) => {
    const request = parseBody(oid4vpRequestObjectRequestSchema, req.body);
    res.json(await createRequestObject({ ...deps.login, ...deps.oid4vp }, request));
  });

  /** 200 Oid4vpVerifyResponseResult (`verified` true or false) | 400 bad body | 503 chain down. */
  router.post('/internal/v1/oid4vp/verify-response', async (req, res) => {
    const request = parseBody(oid4vpVerifyResponseRequestSchema, req.body);
    res.json(await verifyOid4vpResponse(deps.login, request));
  });

  /**
   * 200 PresentationVpVerifyResult (`verified` true or false) | 400 bad body | 503 chain down:
   * a `jwt_vc_json` VP of a wallet's answer to an auth-service presentation request (§14).
   */
  router.post('/internal/v1/presentation-requests/verify-vp', async (req, res) => {
    const request = parseBody(presentationVpVerifyRequestSchema, req.body);
    res.json(await verifyPresentationVp(deps.login, request));
  });

  /**
   * 200 `{ certificates: [<PEM>, …] }`: the roots of the SD-JWT VC issuer's chains (the dev CA in
   * development), which auth-service's verifier always trusts (contract §14); `[]` while SD-JWT
   * VC issuance is off.
   */
  router.get('/internal/v1/sd-jwt-issuer/trust-anchors', async (_req, res) => {
    res.json({ certificates: (await deps.sdJwtIssuer?.trustAnchorsPem()) ?? [] });
  });

  /**
   * 200 RevokeUserCredentialsResult | 400 bad body: after a password reset, every credential
   * issued for the user before `issuedBefore` is revoked (docs/api.md §12). Idempotent.
   */
  router.post('/internal/v1/users/revoke-credentials', async (req, res) => {
    const request = parseBody(revokeUserCredentialsRequestSchema, req.body);
    res.json(await revokeUserCredentials(deps.userCredentials, request));
  });

  return router;
}
