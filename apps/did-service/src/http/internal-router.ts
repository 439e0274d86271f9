import { Router } from 'express';
import { verifyLoginVpRequestSchema } from '@itp/schemas';
import { jsonBody, parseBody, requireInternalToken } from '@itp/service-kit';
import {
  verifyLoginPresentation,
  type LoginPresentationDeps,
} from '../login/verify-login-presentation.js';

export interface InternalRouterDeps {
  login: LoginPresentationDeps;
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

  return router;
}
