import { z } from 'zod';
import { didString } from './primitives.js';

/**
 * did-service's internal API for auth-service (`POST /internal/v1/verify-login-vp`, bearer
 * INTERNAL_TOKEN_AUTH_TO_DID; never routed by the gateway): the one implementation of the VP
 * login rules.
 */
export const verifyLoginVpRequestSchema = z
  .object({
    /** The client's VP as sent to auth-user-with-vp; did-service answers 400 when it is no VP. */
    vp: z.unknown(),
    /** Freshness window in seconds (default: did-service's VP_LOGIN_MAX_AGE_SECONDS). */
    maxAgeSeconds: z.number().int().min(1).max(3600).optional(),
  })
  .meta({ title: 'VerifyLoginVpRequest' });
export type VerifyLoginVpRequest = z.infer<typeof verifyLoginVpRequestSchema>;

export const verifyLoginVpResultSchema = z
  .object({
    /** The user logged in: credentialSubject.sub of every VC inside. */
    userId: z.string().min(1),
    holder: didString,
    /** The verifier DID of this service the VP is addressed to. */
    verifier: didString,
    /** The VP's unique id (JWT `jti`, else `nonce`): the key for replay refusal. */
    vpId: z.string().min(1),
    /** VP issuance time (JWT `nbf`), Unix seconds. */
    issuedAt: z.number().int(),
    /** When the VP stops being fresh (issuedAt + max age), Unix seconds: keep the replay mark until then. */
    freshUntil: z.number().int(),
    /**
     * The earliest issuance time (`nbf`, else `iat`, Unix seconds) of the credentials inside:
     * auth-service refuses a credential issued before the user's last reset (docs/api.md §12),
     * also before did-service has set its status bit. Absent from an older did-service.
     */
    credentialIssuedAt: z.number().int().optional(),
  })
  .meta({ title: 'VerifyLoginVpResult' });
export type VerifyLoginVpResult = z.infer<typeof verifyLoginVpResultSchema>;
