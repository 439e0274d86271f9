import express, { type Router } from 'express';
import { z } from 'zod';
import {
  PRESENTATION_REQUEST_LIMITS,
  presentationRequestCreateSchema,
  presentationRequestResultRequestSchema,
} from '@itp/schemas';
import {
  oauthErrorHandler,
  jsonBody,
  parseBody,
  type Logger,
  type OAuthRefusal,
} from '@itp/service-kit';
import type { ClientAuthenticator } from '../clients/client-authenticator.js';
import { PresentationRequestsNotEnabledError } from '../errors.js';
import { clientOf, requireClient } from '../http/require-client.js';
import { OAuthError } from '../oid4vp/oauth-error.js';
import { walletErrorResponseSchema } from '../oid4vp/wallet-error-response.js';
import type { PollThrottle } from '../rate-limit/poll-throttle.js';
import { REQUEST_OBJECT_MEDIA_TYPE } from '../http/oid4vp-router.js';
import type { PresentationRequests, WalletForm } from './presentation-requests.js';
import { parseSiteDcqlQuery } from './site-dcql-query.js';

/** The longest a request stays open, and the default (seconds). */
export const MAX_WAIT_SECONDS = PRESENTATION_REQUEST_LIMITS.maxWaitSeconds;
export const DEFAULT_WAIT_SECONDS = PRESENTATION_REQUEST_LIMITS.defaultWaitSeconds;
/** The largest body a site or a wallet may send (a DCQL query, an encrypted response). */
const MAX_BODY_BYTES = 256 * 1024;

/** The wallet's form: an encrypted response, or an (unencrypted) error response. */
const walletFormSchema = z.union([
  z.object({ response: z.string().min(1) }).strict(),
  walletErrorResponseSchema,
]);

function refusalOf(err: unknown): OAuthRefusal | undefined {
  return err instanceof OAuthError ? { status: err.status, body: err.body } : undefined;
}

export interface PresentationRequestsRouterDeps {
  /** Undefined: the feature is off (no verifier key and certificate): every route answers 404. */
  requests: PresentationRequests | undefined;
  clientAuthenticator: ClientAuthenticator;
  pollThrottle: PollThrottle;
  bodyLimitBytes: number;
  logger: Logger;
}

/**
 * `/v2/auth/presentation-requests`, what wallets call (contract §14): GET <id>/request, POST
 * <id>/response — OAuth error bodies; the one-time id in the path is the capability.
 */
export function presentationWalletRouter(deps: PresentationRequestsRouterDeps): Router {
  const router = express.Router();
  const form = express.urlencoded({
    extended: false,
    limit: Math.min(deps.bodyLimitBytes * 4, MAX_BODY_BYTES),
    type: 'application/x-www-form-urlencoded',
  });
  const enabled = (): PresentationRequests => {
    if (!deps.requests)
      throw new OAuthError(404, 'invalid_request', 'Presentation requests are not enabled');
    return deps.requests;
  };

  router.get('/:id/request', async (req, res) => {
    const requestObject = await enabled().takeRequestObject(req.params.id);
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Content-Type', REQUEST_OBJECT_MEDIA_TYPE);
    res.status(200).end(requestObject);
  });

  router.post('/:id/response', form, async (req, res) => {
    const requests = enabled();
    if (
      typeof req.body === 'object' &&
      req.body !== null &&
      'vp_token' in req.body &&
      !('response' in req.body)
    ) {
      throw new OAuthError(
        400,
        'invalid_request',
        'The response must be encrypted (response_mode direct_post.jwt: response=<JWE>)',
      );
    }
    const parsed = walletFormSchema.safeParse(req.body);
    if (!parsed.success) {
      throw new OAuthError(
        400,
        'invalid_request',
        'The form body needs response (a JWE), or error and state, once each',
      );
    }
    await requests.answer(req.params.id, parsed.data as WalletForm);
    res.setHeader('Cache-Control', 'no-store');
    res.status(200).json({});
  });

  router.use(oauthErrorHandler(deps.logger, refusalOf));
  return router;
}

/**
 * `/v2/auth/presentation-requests`, what sites call with their HTTP Basic credentials (contract
 * §14): create a request, collect its outcome. REST error bodies.
 */
export function presentationSiteRouter(deps: PresentationRequestsRouterDeps): Router {
  const router = express.Router();
  const json = jsonBody({ limit: Math.min(deps.bodyLimitBytes, MAX_BODY_BYTES) });
  const client = requireClient(deps.clientAuthenticator);
  const enabled = (): PresentationRequests => {
    if (!deps.requests) throw new PresentationRequestsNotEnabledError();
    return deps.requests;
  };

  router.post('/', client, json, async (req, res) => {
    const requests = enabled();
    const body = parseBody(presentationRequestCreateSchema, req.body);
    const created = await requests.create(clientOf(res), {
      dcqlQuery: parseSiteDcqlQuery(body.dcql_query),
      ...(body.purpose === undefined ? {} : { purpose: body.purpose }),
      waitTimeSeconds: body.waitTime,
    });
    res.setHeader('Cache-Control', 'no-store');
    res.status(200).json(created);
  });

  router.post('/result', client, json, async (req, res) => {
    const requests = enabled();
    const body = parseBody(presentationRequestResultRequestSchema, req.body);
    const caller = clientOf(res);
    await deps.pollThrottle.pass(`presentation\u0000${caller.id}\u0000${body.requestId}`);
    res.setHeader('Cache-Control', 'no-store');
    res.status(200).json(await requests.result(caller, body.requestId));
  });

  return router;
}
