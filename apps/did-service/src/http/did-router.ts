import { Router } from 'express';
import {
  createDidRequestSchema,
  createVcRequestSchema,
  createVpRequestSchema,
  revokeVcRequestSchema,
  type IssuedCredentialsResponse,
} from '@itp/schemas';
import {
  createPresentation,
  type CreatePresentationDeps,
} from '../credentials/create-presentation.js';
import { issueCredential, type IssueCredentialDeps } from '../credentials/issue-credential.js';
import { verifyCredentialBody, verifyPresentationBody } from '../credentials/verify-bodies.js';
import { createDid, type CreateDidDeps } from '../dids/create-did.js';
import { StatusListNotFoundError } from '../errors.js';
import { revokeCredential, type RevokeCredentialDeps } from '../status/revoke-credential.js';
import {
  revokeSdJwtCredential,
  type RevokeSdJwtDeps,
} from '../status/token-status-list-revocation.js';
import type { StatusListPublisher } from '../status/status-list-publisher.js';
import { isStatusListId } from '../status/status-list-urls.js';
import { jsonBody, parseBody } from '@itp/service-kit';
import {
  optionalUser,
  requireFreshAuthentication,
  requireUser,
  type UserAuthentication,
} from './authenticate.js';
import { sendStatusList } from './status-list-answer.js';

export interface DidRouterDeps {
  createDid: CreateDidDeps;
  credentials: IssueCredentialDeps & CreatePresentationDeps;
  status: {
    revoke: RevokeCredentialDeps;
    /** revoke-vc of an SD-JWT VC (`{ sdJwt }`): its token status list entry. */
    revokeSdJwt: RevokeSdJwtDeps;
    publisher: StatusListPublisher;
    /** Cache-Control max-age of the lists (STATUS_LIST_MAX_AGE_SECONDS). */
    maxAgeSeconds: number;
  };
  users: UserAuthentication;
  bodyLimitBytes: number;
}

/**
 * The public DID API, `/v2/did/*` (docs/api.md §2–§3), but for OpenID4VCI's routes (the oid4vci
 * feature's wireOid4vci, mounted before it).
 */
export function didRouter(deps: DidRouterDeps): Router {
  const router = Router();
  const { credentials } = deps;
  router.use('/v2/did', jsonBody({ limit: deps.bodyLimitBytes }));

  // Binding a DID to the bearer's user adds a way in (a VP login): step-up (docs/api.md §12).
  router.post('/v2/did/create-did', async (req, res) => {
    const user = await optionalUser(req, deps.users);
    if (user) requireFreshAuthentication(user, deps.users);
    const request = parseBody(createDidRequestSchema, req.body);
    res.json(await createDid(deps.createDid, request, user?.userId));
  });

  router.post('/v2/did/create-vc', async (req, res) => {
    const user = await requireUser(req, deps.users);
    requireFreshAuthentication(user, deps.users);
    const request = parseBody(createVcRequestSchema, req.body);
    res.json(await issueCredential(credentials, request, user.userId));
  });

  router.post('/v2/did/verify-vc', async (req, res) => {
    res.json(await verifyCredentialBody(credentials, req.body));
  });

  // Presents credentials the user already has: no way in is added, no step-up.
  router.post('/v2/did/create-vp', async (req, res) => {
    const { userId } = await requireUser(req, deps.users);
    const request = parseBody(createVpRequestSchema, req.body);
    res.json(await createPresentation(credentials, request, userId));
  });

  router.post('/v2/did/verify-vp', async (req, res) => {
    res.json(await verifyPresentationBody(credentials, req.body));
  });

  router.post('/v2/did/revoke-vc', async (req, res) => {
    const { userId } = await requireUser(req, deps.users);
    const request = parseBody(revokeVcRequestSchema, req.body);
    if (request.sdJwt !== undefined) {
      res.json(await revokeSdJwtCredential(deps.status.revokeSdJwt, request.sdJwt, userId));
      return;
    }
    const jwt = request.jwt ?? request.vc?.proof.jwt ?? '';
    res.json(await revokeCredential(deps.status.revoke, jwt, userId));
  });

  // The caller's issued credentials (docs/api.md §12): a read, no step-up.
  router.get('/v2/did/credentials', async (req, res) => {
    const { userId } = await requireUser(req, deps.users);
    const listed: IssuedCredentialsResponse =
      await credentials.issuedCredentials.listForUser(userId);
    res.setHeader('Cache-Control', 'no-store');
    res.json(listed);
  });

  // Public (no authentication): verifiers anywhere fetch the lists the VCs point at.
  router.get('/v2/did/status-lists/:listId', async (req, res) => {
    const { listId } = req.params;
    const signed = isStatusListId(listId) ? await deps.status.publisher.current(listId) : undefined;
    if (!signed) throw new StatusListNotFoundError();
    sendStatusList(req, res, signed, deps.status.maxAgeSeconds);
  });

  router.get('/v2/did/issuers', (_req, res) => {
    res.json(credentials.serviceDids.issuers);
  });

  router.get('/v2/did/verifiers', (_req, res) => {
    res.json(credentials.serviceDids.verifiers);
  });

  return router;
}
