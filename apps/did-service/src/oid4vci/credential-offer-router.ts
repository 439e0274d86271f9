import { Router } from 'express';
import { credentialOfferRequestSchema } from '@itp/schemas';
import { jsonBody, parseBody } from '@itp/service-kit';
import {
  requireFreshAuthentication,
  requireUser,
  type UserAuthentication,
} from '../http/authenticate.js';
import type { Oid4vciIssuance } from './oid4vci-issuance.js';

export interface CredentialOfferRouterDeps {
  issuance: Oid4vciIssuance;
  users: UserAuthentication;
  bodyLimitBytes: number;
}

/**
 * POST /v2/did/credential-offer (docs/api.md §10): the signed-in user asks for an OpenID4VCI
 * offer for their wallet. An offer leads to a credential, a way in: step-up. REST errors (the
 * public DID API's shape), not the wallet-facing OAuth shape of oid4vciRouter.
 */
export function credentialOfferRouter(deps: CredentialOfferRouterDeps): Router {
  const router = Router();
  router.post(
    '/v2/did/credential-offer',
    jsonBody({ limit: deps.bodyLimitBytes }),
    async (req, res) => {
      const user = await requireUser(req, deps.users);
      requireFreshAuthentication(user, deps.users);
      const request = parseBody(credentialOfferRequestSchema, req.body ?? {});
      res.setHeader('Cache-Control', 'no-store');
      res.json(await deps.issuance.createOffer(user.userId, request));
    },
  );
  return router;
}
