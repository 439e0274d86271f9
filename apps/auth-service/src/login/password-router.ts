import express, { type Router } from 'express';
import { UnauthorizedError } from '@itp/errors';
import { authUserRequestSchema } from '@itp/schemas';
import { bearerToken, jsonBody, parseBody } from '@itp/service-kit';
import { clientIp } from '../http/client-ip.js';
import type { PasswordLogin } from './password-login.js';

/** `POST /v2/auth/auth-user` (docs/api.md §2): id + password (and a token to extend). */
export function passwordRouter(passwordLogin: PasswordLogin, bodyLimitBytes: number): Router {
  const router = express.Router();
  router.post('/auth-user', jsonBody({ limit: bodyLimitBytes }), async (req, res) => {
    const body = parseBody(authUserRequestSchema, req.body);
    const token = body.token ?? bearerToken(req);
    if (!token && /^bearer\b/i.test(req.headers.authorization ?? '')) {
      throw new UnauthorizedError('The Authorization header must be "Bearer <token>"');
    }
    const result = await passwordLogin.login({
      id: body.id,
      password: body.password,
      token,
      clientIp: clientIp(req),
    });
    res.json(result);
  });
  return router;
}
