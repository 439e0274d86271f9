import { Router } from 'express';
import { createDidRequestSchema, createVcRequestSchema, createVpRequestSchema } from '@itp/schemas';
import {
  createPresentation,
  type CreatePresentationDeps,
} from '../credentials/create-presentation.js';
import { issueCredential, type IssueCredentialDeps } from '../credentials/issue-credential.js';
import { verifyCredentialBody, verifyPresentationBody } from '../credentials/verify-bodies.js';
import { createDid, type CreateDidDeps } from '../dids/create-did.js';
import { jsonBody, parseBody } from '@itp/service-kit';
import { optionalUser, requireUser, type UserAuthentication } from './authenticate.js';

export interface DidRouterDeps {
  createDid: CreateDidDeps;
  credentials: IssueCredentialDeps & CreatePresentationDeps;
  users: UserAuthentication;
  bodyLimitBytes: number;
}

/** The public DID API, `/v2/did/*` (docs/api.md §2–§3, docs/api.md §3). */
export function didRouter(deps: DidRouterDeps): Router {
  const router = Router();
  const { credentials } = deps;
  router.use('/v2/did', jsonBody({ limit: deps.bodyLimitBytes }));

  router.post('/v2/did/create-did', async (req, res) => {
    const userId = await optionalUser(req, deps.users);
    const request = parseBody(createDidRequestSchema, req.body);
    res.json(await createDid(deps.createDid, request, userId));
  });

  router.post('/v2/did/create-vc', async (req, res) => {
    const userId = await requireUser(req, deps.users);
    const request = parseBody(createVcRequestSchema, req.body);
    res.json(await issueCredential(credentials, request, userId));
  });

  router.post('/v2/did/verify-vc', async (req, res) => {
    res.json(await verifyCredentialBody(credentials, req.body));
  });

  router.post('/v2/did/create-vp', async (req, res) => {
    const userId = await requireUser(req, deps.users);
    const request = parseBody(createVpRequestSchema, req.body);
    res.json(await createPresentation(credentials, request, userId));
  });

  router.post('/v2/did/verify-vp', async (req, res) => {
    res.json(await verifyPresentationBody(credentials, req.body));
  });

  router.get('/v2/did/issuers', (_req, res) => {
    res.json(credentials.serviceDids.issuers);
  });

  router.get('/v2/did/verifiers', (_req, res) => {
    res.json(credentials.serviceDids.verifiers);
  });

  return router;
}
