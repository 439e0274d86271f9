import { z } from 'zod';

/**
 * The OpenID4VP 1.0 endpoints of web-site login (contract §8, docs/api.md §2): what a wallet
 * posts to the response URI, and the OAuth-style error body (RFC 6749 §5.2, OpenID4VP 1.0 §8.5)
 * those endpoints answer with, instead of the REST error body of the other `/v2/auth` routes.
 */

/** Most characters of a `vp_token` form value (JSON text holding the VP JWTs). */
export const OID4VP_VP_TOKEN_MAX_LENGTH = 200_000;

/**
 * POST /v2/auth/oid4vp/response/{id} (`application/x-www-form-urlencoded`, `direct_post`). Other
 * members are ignored; each of these must be given once.
 */
export const oid4vpAuthorizationResponseSchema = z
  .object({
    vp_token: z.string().min(1).max(OID4VP_VP_TOKEN_MAX_LENGTH).meta({
      description:
        'JSON object keyed by the DCQL credential query id, each value an array holding the VP JWT',
    }),
    state: z.string().min(1).max(512).meta({ description: 'the `state` of the request object' }),
  })
  .meta({ title: 'Oid4vpAuthorizationResponse' });
export type Oid4vpAuthorizationResponse = z.infer<typeof oid4vpAuthorizationResponseSchema>;

/** 200 of the response URI: an empty object (no `redirect_uri` for a cross-device flow). */
export const oid4vpResponseAcceptedSchema = z
  .object({})
  .strict()
  .meta({ title: 'Oid4vpResponseAccepted' });

export const OAUTH_ERROR_CODES = [
  'invalid_request',
  'access_denied',
  'temporarily_unavailable',
  'server_error',
] as const;
export type OAuthErrorCode = (typeof OAUTH_ERROR_CODES)[number];

/** The error body of the OpenID4VP endpoints. Never says anything about the user. */
export const oauthErrorBodySchema = z
  .object({
    error: z.enum(OAUTH_ERROR_CODES).meta({
      description:
        'invalid_request (unknown, expired, used or malformed), access_denied (presentation refused), temporarily_unavailable (503), server_error',
    }),
    error_description: z.string().meta({ description: 'human-readable, generic' }),
  })
  .meta({ title: 'OAuthErrorBody' });
export type OAuthErrorBody = z.infer<typeof oauthErrorBodySchema>;

/** One refusal of the OpenID4VP endpoints (their catalog, as AUTH_ERRORS is the REST one's). */
export interface OAuthErrorDoc {
  status: number;
  error: OAuthErrorCode;
  when: string;
}

/** What the OpenID4VP endpoints answer besides 200 (docs/api.md §2, contract §8). */
export const OID4VP_ERRORS = {
  requestGone: {
    status: 404,
    error: 'invalid_request',
    when: 'request object: unknown or malformed id, already fetched, or the login request timed out',
  },
  responseInvalid: {
    status: 400,
    error: 'invalid_request',
    when: 'response: malformed form body (vp_token and state once each), unknown / expired / already answered request, wrong state, the login request no longer pending',
  },
  accessDenied: {
    status: 400,
    error: 'access_denied',
    when: 'response: the presentation was refused (or its user is unknown or disabled); the description is generic',
  },
  tooLarge: {
    status: 413,
    error: 'invalid_request',
    when: 'response: body over the limit (`BODY_LIMIT_BYTES`)',
  },
  serverError: {
    status: 500,
    error: 'server_error',
    when: 'a bug (the detail is only in the log)',
  },
  badUpstream: {
    status: 502,
    error: 'server_error',
    when: 'response: did-service answered something unexpected',
  },
  unavailable: {
    status: 503,
    error: 'temporarily_unavailable',
    when: 'did-service cannot check the presentation now, or Redis / the database is down, with `Retry-After`; the wallet may post again',
  },
} as const satisfies Record<string, OAuthErrorDoc>;
