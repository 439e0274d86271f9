import express, { type Request, type Router } from 'express';
import { revokeSiteRequestSchema } from '@itp/schemas';
import { jsonBody, parseBody } from '@itp/service-kit';
import type { BearerCaller } from '../http/bearer-caller.js';
import type { AccountService } from './account-service.js';

/**
 * The caller's account under `/v2/auth` (docs/api.md §12, Bearer JWT): its ways in, logout
 * everywhere, revoke a site.
 */
export function accountRouter(deps: {
  account: AccountService;
  caller: (req: Request) => Promise<BearerCaller>;
  bodyLimitBytes: number;
}): Router {
  const router = express.Router();
  const json = jsonBody({ limit: deps.bodyLimitBytes });

  router.get('/account', async (req, res) => {
    const { user } = await deps.caller(req);
    res.setHeader('Cache-Control', 'no-store');
    res.json(await deps.account.view(user));
  });

  router.post('/logout-everywhere', json, async (req, res) => {
    const { user } = await deps.caller(req);
    await deps.account.logoutEverywhere(user.id);
    res.json({});
  });

  router.post('/revoke-site', json, async (req, res) => {
    const { user } = await deps.caller(req);
    const body = parseBody(revokeSiteRequestSchema, req.body);
    await deps.account.revokeSite(user.id, body.clientId);
    res.json({});
  });

  return router;
}
