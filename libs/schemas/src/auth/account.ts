import { z } from 'zod';
import { plainText } from './plain-text.js';

/**
 * `GET /v2/auth/account` (Bearer, docs/api.md §12): the caller's account and its ways in that
 * auth-service keeps — linked Ethereum addresses and the sites (OpenID Connect clients) holding
 * a grant. Credentials issued for the user are listed by did-service (`GET /v2/did/credentials`).
 */
export const accountResponseSchema = z
  .object({
    userId: z.string(),
    name: z.string(),
    email: z.string().optional(),
    linkedAddresses: z.array(
      z.object({
        /** Lower-case 0x address. */
        address: z.string(),
        /** ISO 8601. */
        linkedAt: z.string(),
      }),
    ),
    sites: z.array(
      z.object({
        clientId: z.string(),
        name: z.string(),
        /** ISO 8601: when the user last granted the site (logged in to it). */
        grantedAt: z.string(),
      }),
    ),
  })
  .meta({ title: 'AccountResponse' });
export type AccountResponse = z.infer<typeof accountResponseSchema>;

/** `POST /v2/auth/revoke-site` (Bearer): ends the caller's grants of that site. */
export const revokeSiteRequestSchema = z
  .object({ clientId: plainText(256) })
  .meta({ title: 'RevokeSiteRequest' });
export type RevokeSiteRequest = z.infer<typeof revokeSiteRequestSchema>;

/** `POST /v2/auth/logout-everywhere` and `/revoke-site` answer `{}`. */
export const emptyResponseSchema = z.object({}).meta({ title: 'EmptyResponse' });
