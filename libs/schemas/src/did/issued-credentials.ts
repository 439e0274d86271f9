import { z } from 'zod';

/**
 * `GET /v2/did/credentials` (Bearer, docs/api.md §12): the credentials this service issued for
 * the caller (create-vc and OpenID4VCI), newest first, with their status.
 */
export const issuedCredentialSchema = z
  .object({
    /** The credential's id (`jti` / `vc.id`, a `urn:uuid:` URI). */
    id: z.string(),
    /** The holder DID it was issued to. */
    holder: z.string(),
    /** ISO 8601. */
    issuedAt: z.string(),
    /** ISO 8601; absent for a credential without expiry. */
    expiresAt: z.string().optional(),
    status: z.enum(['valid', 'revoked']),
    via: z.enum(['create-vc', 'openid4vci']),
  })
  .meta({ title: 'IssuedCredential' });
export type IssuedCredential = z.infer<typeof issuedCredentialSchema>;

export const issuedCredentialsResponseSchema = z
  .array(issuedCredentialSchema)
  .meta({ title: 'IssuedCredentialsResponse' });
export type IssuedCredentialsResponse = z.infer<typeof issuedCredentialsResponseSchema>;

/**
 * did-service's internal API for auth-service (`POST /internal/v1/users/revoke-credentials`,
 * bearer INTERNAL_TOKEN_AUTH_TO_DID): a password reset revokes every credential issued for the
 * user before it (status bit set) and ends the user's open credential offers. Idempotent.
 */
export const revokeUserCredentialsRequestSchema = z
  .object({
    userId: z.string().min(1).max(256),
    /** Unix seconds: credentials issued (and offers made) before this are ended. */
    issuedBefore: z.number().int().nonnegative(),
  })
  .meta({ title: 'RevokeUserCredentialsRequest' });
export type RevokeUserCredentialsRequest = z.infer<typeof revokeUserCredentialsRequestSchema>;

export const revokeUserCredentialsResultSchema = z
  .object({
    /** How many credentials this call revoked (already revoked ones are not counted). */
    revoked: z.number().int().nonnegative(),
  })
  .meta({ title: 'RevokeUserCredentialsResult' });
export type RevokeUserCredentialsResult = z.infer<typeof revokeUserCredentialsResultSchema>;
