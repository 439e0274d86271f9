import express, { type Request, type RequestHandler, type Router } from 'express';
import { bearerToken, jsonBody, parseBody } from '@itp/service-kit';
import {
  authUserByAppRequestSchema,
  authUserRequestSchema,
  authUserWithVpRequestSchema,
  authUserResultByAppRequestSchema,
  cancelAuthUserByAppRequestSchema,
  revokeSiteRequestSchema,
  siweNonceRequestSchema,
  siweSignedMessageSchema,
  unlinkAddressRequestSchema,
  type AuthJwks,
} from '@itp/schemas';
import {
  assertFreshAuthentication,
  assertTokenCurrent,
  type JwtVerifier,
  type VerifiedJwt,
} from '@itp/auth-jwt';
import type { Hex } from 'viem';
import { ForbiddenError, UnauthorizedError } from '@itp/errors';
import type { AccountService } from '../account/account-service.js';
import type { Client } from '../clients/client.js';
import type { ClientAuthenticator } from '../clients/client-authenticator.js';
import type { LoginResults } from '../login/login-results.js';
import type { PasswordLogin } from '../login/password-login.js';
import type { LoginRequests } from '../login-requests/login-requests.js';
import type { PollThrottle } from '../rate-limit/poll-throttle.js';
import type { VpLogin } from '../vp-login/vp-login.js';
import type { Oid4vpLogin } from '../oid4vp/oid4vp-login.js';
import { SiweNotEnabledError } from '../errors.js';
import type { SiweLogin } from '../siwe/siwe-login.js';
import type { User } from '../users/user.js';
import type { UserRepository } from '../users/user-repository.js';

export interface AuthRouterDeps {
  passwordLogin: PasswordLogin;
  vpLogin: VpLogin;
  /** auth-user-by-app's openid4vpUri (OpenID4VP login from any wallet). */
  oid4vp: Oid4vpLogin;
  loginRequests: LoginRequests;
  loginResults: LoginResults;
  clientAuthenticator: ClientAuthenticator;
  pollThrottle: PollThrottle;
  jwks: AuthJwks;
  jwksMaxAgeSeconds: number;
  bodyLimitBytes: number;
  /** Sign-In with Ethereum; undefined when no chain is configured (its routes answer 404). */
  siwe: SiweLogin | undefined;
  /** Verifies this service's own tokens (link-address, unlink-address, the account routes). */
  ownTokens: JwtVerifier;
  users: UserRepository;
  /** The caller's account: its ways in, logout everywhere, revoke a site (docs/api.md §12). */
  account: AccountService;
  /** Step-up (RFC 9470): how recent a login link-address needs (STEP_UP_MAX_AGE_SECONDS). */
  stepUpMaxAgeSeconds: number;
  clock?: () => number;
}

/** The caller's address as express determined it (honouring TRUST_PROXY). */
export function clientIp(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}

/** Runs the relying-party authentication and keeps the client in `res.locals.client`. */
function requireClient(authenticator: ClientAuthenticator): RequestHandler {
  return async (req, res, next) => {
    try {
      res.locals.client = await authenticator.authenticate(
        req.headers.authorization,
        clientIp(req),
      );
      next();
    } catch (err) {
      if (err instanceof UnauthorizedError) {
        res.setHeader('WWW-Authenticate', 'Basic realm="itp-auth", charset="UTF-8"');
      }
      next(err);
    }
  };
}

const clientOf = (res: { locals: Record<string, unknown> }) => res.locals.client as Client;

/**
 * `/v2/auth` (docs/api.md §2). Bodies are JSON (limit BODY_LIMIT_BYTES);
 * unknown members are ignored. Errors are thrown as BaseErrors and rendered by service-kit's
 * REST error handler.
 */
export function authRouter(deps: AuthRouterDeps): Router {
  const router = express.Router();
  const json = jsonBody({ limit: deps.bodyLimitBytes });
  const client = requireClient(deps.clientAuthenticator);

  router.get('/.well-known/jwks.json', (_req, res) => {
    res.setHeader('Cache-Control', `public, max-age=${deps.jwksMaxAgeSeconds}`);
    res.json(deps.jwks);
  });

  router.post('/auth-user', json, async (req, res) => {
    const body = parseBody(authUserRequestSchema, req.body);
    const token = body.token ?? bearerToken(req);
    if (!token && /^bearer\b/i.test(req.headers.authorization ?? '')) {
      throw new UnauthorizedError('The Authorization header must be "Bearer <token>"');
    }
    const result = await deps.passwordLogin.login({
      id: body.id,
      password: body.password,
      token,
      clientIp: clientIp(req),
    });
    res.json(result);
  });

  router.post('/auth-user-with-vp', json, async (req, res) => {
    const body = parseBody(authUserWithVpRequestSchema, req.body);
    res.json(await deps.vpLogin.login(body.vp, body.requestId, clientIp(req)));
  });

  router.post('/auth-user-by-app', client, json, async (req, res) => {
    const body = parseBody(authUserByAppRequestSchema, req.body);
    const created = await deps.loginRequests.create(clientOf(res), body.requestId, body.waitTime);
    // Without it (did-service unavailable) the answer is the same, less the URI.
    const openid4vpUri = await deps.oid4vp.start(created.requestId, created.waitTime);
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
    const approval = await deps.loginRequests.takeApproval(caller, body.requestId);
    try {
      res.json(
        await deps.loginResults.issueLoginResult(approval.userId, approval.method, {
          ...(approval.approvedAt !== undefined ? { approvedAt: approval.approvedAt } : {}),
        }),
      );
    } catch (err) {
      // Disabled or removed between approval and hand-out; 401 would mean "still waiting".
      if (err instanceof UnauthorizedError) throw new ForbiddenError(err.message);
      throw err;
    }
  });

  const siwe = (): SiweLogin => {
    if (!deps.siwe) throw new SiweNotEnabledError();
    return deps.siwe;
  };
  const now = deps.clock ?? Date.now;
  /**
   * The user of the request's Bearer JWT (this service's own), enabled, and the token not ended
   * by a reset, a disable or a logout everywhere (@itp/auth-jwt's one decision); else 401 (the
   * verifier's own generic refusal for a bad token, as everywhere else).
   */
  const caller = async (req: Request): Promise<{ user: User; token: VerifiedJwt }> => {
    const bearer = bearerToken(req);
    if (!bearer) throw new UnauthorizedError('Authorization: Bearer <JWT> is required');
    const token = await deps.ownTokens.verify(bearer);
    const user = await deps.users.findById(token.userId);
    assertTokenCurrent(
      token,
      user && { active: user.enabled, tokensValidAfter: user.tokensValidAfter },
    );
    return { user: user!, token };
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
    const { user, token } = await caller(req);
    assertFreshAuthentication(token, deps.stepUpMaxAgeSeconds, now());
    const body = parseBody(siweSignedMessageSchema, req.body);
    res.json(await login.link(user.id, body.message, body.signature as Hex, clientIp(req)));
  });

  router.post('/unlink-address', json, async (req, res) => {
    const login = siwe();
    const { user } = await caller(req);
    const body = parseBody(unlinkAddressRequestSchema, req.body);
    res.json(await login.unlink(user.id, body.address));
  });

  router.get('/account', async (req, res) => {
    const { user } = await caller(req);
    res.setHeader('Cache-Control', 'no-store');
    res.json(await deps.account.view(user));
  });

  router.post('/logout-everywhere', json, async (req, res) => {
    const { user } = await caller(req);
    await deps.account.logoutEverywhere(user.id);
    res.json({});
  });

  router.post('/revoke-site', json, async (req, res) => {
    const { user } = await caller(req);
    const body = parseBody(revokeSiteRequestSchema, req.body);
    await deps.account.revokeSite(user.id, body.clientId);
    res.json({});
  });

  return router;
}
