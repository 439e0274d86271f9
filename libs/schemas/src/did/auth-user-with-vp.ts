import { z } from 'zod';
import { AUTH_LIMITS } from '../auth/auth-user.js';
import { plainText } from '../auth/plain-text.js';

/**
 * POST /v2/auth/auth-user-with-vp (docs/api.md §2): `vp` is a VP (§3.3) made
 * by create-vp for a verifier DID of the service; `requestId` (the QR code of a web-site login)
 * approves that pending request for the VP's user. Answer: the login result (§2.1).
 */
export const authUserWithVpRequestSchema = z
  .object({
    vp: z
      .record(z.string(), z.unknown())
      .meta({ description: 'the verifiable presentation (create-vp), fresh and used once' }),
    requestId: plainText(AUTH_LIMITS.requestIdLength)
      .optional()
      .meta({ description: 'web-site login: the requestId shown as QR code (omit for app login)' }),
  })
  .meta({ title: 'AuthUserWithVpRequest' });
export type AuthUserWithVpRequest = z.infer<typeof authUserWithVpRequestSchema>;
