import express, { type Router } from 'express';
import { authUserWithVpRequestSchema } from '@itp/schemas';
import { jsonBody, parseBody } from '@itp/service-kit';
import { clientIp } from '../http/client-ip.js';
import type { VpLogin } from './vp-login.js';

/** `POST /v2/auth/auth-user-with-vp` (docs/api.md §2): the phone app's VP login. */
export function vpLoginRouter(vpLogin: VpLogin, bodyLimitBytes: number): Router {
  const router = express.Router();
  router.post('/auth-user-with-vp', jsonBody({ limit: bodyLimitBytes }), async (req, res) => {
    const body = parseBody(authUserWithVpRequestSchema, req.body);
    res.json(await vpLogin.login(body.vp, body.requestId, clientIp(req)));
  });
  return router;
}
