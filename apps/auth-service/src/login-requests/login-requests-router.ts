import express, { type Router } from 'express';
import { ForbiddenError, UnauthorizedError } from '@itp/errors';
import {
  authUserByAppRequestSchema,
  authUserResultByAppRequestSchema,
  cancelAuthUserByAppRequestSchema,
} from '@itp/schemas';
import { jsonBody, parseBody } from '@itp/service-kit';
import type { ClientAuthenticator } from '../clients/client-authenticator.js';
import { clientOf, requireClient } from '../http/require-client.js';
import { attemptLogin } from '../login/attempt-login.js';
import type { LoginMethod } from '../login/login-method.js';
import type { LoginResults } from '../login/login-results.js';
import type { PollThrottle } from '../rate-limit/poll-throttle.js';
import type { RequestCollection } from './approved-request-login.js';
import type { LoginRequests } from './login-requests.js';

export interface LoginRequestsRouterDeps {
  loginRequests: LoginRequests;
  /** The approved request's login method (the result's `amr` is its approval's). */
  approvedRequests: LoginMethod<RequestCollection>;
  loginResults: LoginResults;
  clientAuthenticator: ClientAuthenticator;
  pollThrottle: PollThrottle;
  /**
   * auth-user-by-app's openid4vpUri for a new request (OpenID4VP login from any wallet);
   * undefined: the answer has none.
   */
  walletUri: (requestId: string, waitTimeSeconds: number) => Promise<string | undefined>;
  bodyLimitBytes: number;
}

/**
 * The web-site login requests of relying parties (docs/api.md §2, HTTP Basic): auth-user-by-app,
 * cancel-auth-user-by-app, auth-user-result-by-app.
 */
export function loginRequestsRouter(deps: LoginRequestsRouterDeps): Router {
  const router = express.Router();
  const json = jsonBody({ limit: deps.bodyLimitBytes });
  const client = requireClient(deps.clientAuthenticator);

  router.post('/auth-user-by-app', client, json, async (req, res) => {
    const body = parseBody(authUserByAppRequestSchema, req.body);
    const created = await deps.loginRequests.create(clientOf(res), body.requestId, body.waitTime);
    // Without it (did-service unavailable) the answer is the same, less the URI.
    const openid4vpUri = await deps.walletUri(created.requestId, created.waitTime);
    res.json(openid4vpUri ? { ...created, openid4vpUri } : created);
  });

  router.post('/cancel-auth-user-by-app', client, json, async (req, res) => {
    const body = parseBody(cancelAuthUserByAppRequestSchema, req.body);
    await deps.loginRequests.cancel(clientOf(res), body.requestId);
    res.status(200).end();
  });

  router.post('/auth-user-result-by-app', client, json, async (req, res) => {
    const body = parseBody(authUserResultByAppRequestSchema, req.body);
    const caller = clientOf(res);
    await deps.pollThrottle.pass(`${caller.id}\u0000${body.requestId}`);
    const login = await attemptLogin(deps.approvedRequests, {
      client: caller,
      requestId: body.requestId,
    });
    try {
      res.json(await deps.loginResults.complete(login));
    } catch (err) {
      // Disabled or removed between approval and hand-out; 401 would mean "still waiting".
      if (err instanceof UnauthorizedError) throw new ForbiddenError(err.message);
      throw err;
    }
  });

  return router;
}
