import { z } from 'zod';
import { passkeySummarySchema } from './passkeys.js';
import { plainText } from './plain-text.js';

/**
 * `GET /v2/auth/account` (Bearer, docs/api.md §12): the caller's account and its ways in that
 * auth-service keeps — linked Ethereum addresses, passkeys and the sites (OpenID Connect clients)
 * holding a grant. Credentials issued for the user are listed by did-service (`GET /v2/did/credentials`).
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
    /** Parsing an answer without it (a service before passkeys) gives []. */
    passkeys: z.array(passkeySummarySchema).default([]),
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
/**
 * What the service may answer (`passkeys` may be absent); parsing it with the schema gives
 * `AccountView`, where it is always there.
 */
export type AccountResponse = z.input<typeof accountResponseSchema>;
/** The account as parsed: `passkeys` is [] when the answer had none. */
export type AccountView = z.output<typeof accountResponseSchema>;

/** `POST /v2/auth/revoke-site` (Bearer): ends the caller's grants of that site. */
export const revokeSiteRequestSchema = z
  .object({ clientId: plainText(256) })
  .meta({ title: 'RevokeSiteRequest' });
export type RevokeSiteRequest = z.infer<typeof revokeSiteRequestSchema>;

/** `POST /v2/auth/logout-everywhere` and `/revoke-site` answer `{}`. */
export const emptyResponseSchema = z.object({}).meta({ title: 'EmptyResponse' });
