import type { VerifyLoginVpResult } from '@itp/schemas';

/**
 * did-service's VP login check (POST /internal/v1/verify-login-vp), the one implementation of
 * the VP rules of docs/api.md §2. Resolves with the VP's user, holder, verifier, id and freshness;
 * rejects with UnauthorizedError (the VP is refused, message says why), BadRequestError (no VP),
 * or a 5xx error when did-service cannot answer.
 */
export interface LoginVpVerifier {
  verify(vp: unknown, maxAgeSeconds: number): Promise<VerifyLoginVpResult>;
}
