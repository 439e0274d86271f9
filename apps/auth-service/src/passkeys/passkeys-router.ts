import express, { type Request, type Router } from 'express';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { assertFreshAuthentication } from '@itp/auth-jwt';
import {
  passkeyAuthenticationRequestSchema,
  passkeyOptionsRequestSchema,
  passkeyRegistrationRequestSchema,
  passkeyRemoveRequestSchema,
} from '@itp/schemas';
import { jsonBody, parseBody } from '@itp/service-kit';
import type { RateLimit, RateLimiter } from '@itp/stores';
import type { BearerCaller } from '../http/bearer-caller.js';
import { clientIp } from '../http/client-ip.js';
import { attemptLogin } from '../login/attempt-login.js';
import type { LoginResults } from '../login/login-results.js';
import type { PasskeyLogin } from './passkey-login.js';
import type { Passkeys } from './passkeys.js';

export interface PasskeysRouterDeps {
  passkeys: Passkeys;
  login: PasskeyLogin;
  results: LoginResults;
  caller: (req: Request) => Promise<BearerCaller>;
  /** Step-up (RFC 9470): how recent a login adding or removing a passkey needs. */
  stepUpMaxAgeSeconds: number;
  /** Anonymous authentication options per client address (each stores a challenge). */
  optionsLimiter: RateLimiter;
  optionsLimit: RateLimit;
  bodyLimitBytes: number;
  clock?: () => number;
}

/**
 * Passkeys under `/v2/auth` (docs/api.md §13): registration and removal by the signed-in user
 * with a fresh login (a way in: step-up of §12), authentication options for anyone (bounded per
 * client address), and the login with a passkey's assertion.
 */
export function passkeysRouter(deps: PasskeysRouterDeps): Router {
  const router = express.Router();
  const json = jsonBody({ limit: deps.bodyLimitBytes });
  const now = deps.clock ?? Date.now;

  /** The caller, with a login recent enough to add or remove a way in. */
  const freshCaller = async (req: Request) => {
    const caller = await deps.caller(req);
    assertFreshAuthentication(caller.token, deps.stepUpMaxAgeSeconds, now());
    return caller;
  };

  router.post('/passkeys/registration-options', json, async (req, res) => {
    parseBody(passkeyOptionsRequestSchema, req.body ?? {});
    const { user } = await freshCaller(req);
    res.setHeader('Cache-Control', 'no-store');
    res.json(await deps.passkeys.registrationOptions(user));
  });

  router.post('/passkeys', json, async (req, res) => {
    const body = parseBody(passkeyRegistrationRequestSchema, req.body);
    const { user } = await freshCaller(req);
    const passkey = await deps.passkeys.register(
      user,
      body.response as unknown as RegistrationResponseJSON,
      body.name,
    );
    res.status(201).json(passkey);
  });

  router.post('/passkeys/remove', json, async (req, res) => {
    const body = parseBody(passkeyRemoveRequestSchema, req.body);
    const { user } = await freshCaller(req);
    await deps.passkeys.remove(user.id, body.id);
    res.json({});
  });

  router.post('/passkeys/authentication-options', json, async (req, res) => {
    parseBody(passkeyOptionsRequestSchema, req.body ?? {});
    await deps.optionsLimiter.take(deps.optionsLimit, clientIp(req));
    res.setHeader('Cache-Control', 'no-store');
    res.json(await deps.passkeys.authenticationOptions());
  });

  router.post('/auth-user-with-passkey', json, async (req, res) => {
    const body = parseBody(passkeyAuthenticationRequestSchema, req.body);
    const authenticated = await attemptLogin(deps.login, {
      response: body.response as unknown as AuthenticationResponseJSON,
      clientIp: clientIp(req),
    });
    res.json(await deps.results.complete(authenticated));
  });

  return router;
}
