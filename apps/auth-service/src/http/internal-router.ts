import express, { type Router } from 'express';
import { userStatusRequestSchema } from '@itp/schemas';
import { jsonBody, parseBody, requireInternalToken } from '@itp/service-kit';
import type { UserStatus } from '../users/user-status.js';

export interface InternalRouterDeps {
  /**
   * The tokens accepted: did-service's INTERNAL_TOKEN_DID_TO_AUTH and, during a rotation,
   * INTERNAL_API_ACCEPTED_TOKENS.
   */
  internalApiToken: string | readonly string[];
  userStatus: UserStatus;
  bodyLimitBytes: number;
}

/**
 * `/internal/v1` of auth-service: did-service's calls with `Authorization: Bearer
 * <INTERNAL_TOKEN_DID_TO_AUTH>` (401 without), on the internal listener only (INTERNAL_PORT),
 * never routed by the gateway.
 * - `POST /users/status {userId}` → `{userId, active, tokensValidAfter}` (did-service asks before acting for a user
 *   with a JWT, so that a disabled user stops working within seconds).
 */
export function internalRouter(deps: InternalRouterDeps): Router {
  const router = express.Router();
  router.use(requireInternalToken(deps.internalApiToken));
  const json = jsonBody({ limit: deps.bodyLimitBytes });

  router.post('/users/status', json, async (req, res) => {
    const body = parseBody(userStatusRequestSchema, req.body);
    res.json(await deps.userStatus.statusOf(body.userId));
  });

  return router;
}
