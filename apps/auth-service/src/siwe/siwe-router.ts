import express, { type Request, type Router } from 'express';
import type { Hex } from 'viem';
import { assertFreshAuthentication } from '@itp/auth-jwt';
import {
  siweNonceRequestSchema,
  siweSignedMessageSchema,
  unlinkAddressRequestSchema,
} from '@itp/schemas';
import { jsonBody, parseBody } from '@itp/service-kit';
import { SiweNotEnabledError } from '../errors.js';
import type { BearerCaller } from '../http/bearer-caller.js';
import { clientIp } from '../http/client-ip.js';
import type { SiweLogin } from './siwe-login.js';

export interface SiweRouterDeps {
  /** Sign-In with Ethereum; undefined when no chain is configured (its routes answer 404). */
  siwe: SiweLogin | undefined;
  /** The Bearer JWT's user (link-address, unlink-address). */
  caller: (req: Request) => Promise<BearerCaller>;
  /** Step-up (RFC 9470): how recent a login link-address needs (STEP_UP_MAX_AGE_SECONDS). */
  stepUpMaxAgeSeconds: number;
  bodyLimitBytes: number;
  clock?: () => number;
}

/**
 * Sign-In with Ethereum's routes under `/v2/auth` (docs/api.md §11): siwe/nonce,
 * auth-user-with-siwe, link-address, unlink-address.
 */
export function siweRouter(deps: SiweRouterDeps): Router {
  const router = express.Router();
  const json = jsonBody({ limit: deps.bodyLimitBytes });
  const now = deps.clock ?? Date.now;
  const siwe = (): SiweLogin => {
    if (!deps.siwe) throw new SiweNotEnabledError();
    return deps.siwe;
  };

  router.post('/siwe/nonce', json, async (req, res) => {
    const login = siwe();
    parseBody(siweNonceRequestSchema, req.body ?? {});
    const answer = await login.nonce(clientIp(req));
    res.setHeader('Cache-Control', 'no-store');
    res.json(answer);
  });

  router.post('/auth-user-with-siwe', json, async (req, res) => {
    const login = siwe();
    const body = parseBody(siweSignedMessageSchema, req.body);
    res.json(await login.login(body.message, body.signature as Hex, clientIp(req)));
  });

  // Adding a way in needs a fresh login (step-up, RFC 9470): an older one is 401 with the
  // WWW-Authenticate challenge; the client logs in again and retries.
  router.post('/link-address', json, async (req, res) => {
    const login = siwe();
    const { user, token } = await deps.caller(req);
    assertFreshAuthentication(token, deps.stepUpMaxAgeSeconds, now());
    const body = parseBody(siweSignedMessageSchema, req.body);
    res.json(await login.link(user.id, body.message, body.signature as Hex, clientIp(req)));
  });

  router.post('/unlink-address', json, async (req, res) => {
    const login = siwe();
    const { user } = await deps.caller(req);
    const body = parseBody(unlinkAddressRequestSchema, req.body);
    res.json(await login.unlink(user.id, body.address));
  });

  return router;
}
