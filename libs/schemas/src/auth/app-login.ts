import { z } from 'zod';
import { AUTH_LIMITS } from './auth-user.js';
import { plainText } from './plain-text.js';

/** docs/api.md §2: waitTime is in seconds, default 60, at most 600. */
export const APP_LOGIN_WAIT_TIME = { defaultSeconds: 60, maxSeconds: 600 } as const;

const requestId = plainText(AUTH_LIMITS.requestIdLength);

/**
 * POST /v2/auth/auth-user-by-app (HTTP Basic client credentials). `requestId`: the site
 * identifier (generally the page URL followed by `?`); it must start with one of the client's
 * registered prefixes.
 */
export const authUserByAppRequestSchema = z
  .object({
    requestId: requestId.meta({
      description: "site identifier; must start with one of the client's registered prefixes",
    }),
    waitTime: z
      .number()
      .int()
      .min(1)
      .max(APP_LOGIN_WAIT_TIME.maxSeconds)
      .default(APP_LOGIN_WAIT_TIME.defaultSeconds)
      .meta({ description: 'seconds the request stays open (1..600, default 60)' }),
  })
  .meta({ title: 'AuthUserByAppRequest' });
export type AuthUserByAppRequest = z.infer<typeof authUserByAppRequestSchema>;

/** docs/api.md §2.2 with the new requestId `<site prefix as sent>requestId=<decimal id>`. */
export const authUserByAppResponseSchema = z
  .object({
    requestId: z.string().meta({
      description:
        '<site identifier as sent>requestId=<ms timestamp followed by 128 random bits, decimal>',
    }),
    waitTime: z.number().int().meta({ description: 'seconds the request stays open' }),
    openid4vpUri: z.string().startsWith('openid4vp://?').optional().meta({
      description:
        'OpenID4VP 1.0 authorization request for any wallet: openid4vp://?client_id=<url-encoded client id>&request_uri=<url-encoded <public URL>/v2/auth/oid4vp/request/<id>>; absent when it could not be made (did-service unavailable), the requestId still works',
    }),
  })
  .meta({ title: 'AuthUserByAppResponse' });
export type AuthUserByAppResponse = z.infer<typeof authUserByAppResponseSchema>;

/** POST /v2/auth/cancel-auth-user-by-app; `waitTime` (and any other member) is ignored. */
export const cancelAuthUserByAppRequestSchema = z
  .object({
    requestId: requestId.meta({ description: 'the requestId returned by auth-user-by-app' }),
  })
  .meta({ title: 'CancelAuthUserByAppRequest' });
export type CancelAuthUserByAppRequest = z.infer<typeof cancelAuthUserByAppRequestSchema>;

/** POST /v2/auth/auth-user-result-by-app; `waitTime` (and any other member) is ignored. */
export const authUserResultByAppRequestSchema = z
  .object({
    requestId: requestId.meta({ description: 'the requestId returned by auth-user-by-app' }),
  })
  .meta({ title: 'AuthUserResultByAppRequest' });
export type AuthUserResultByAppRequest = z.infer<typeof authUserResultByAppRequestSchema>;
