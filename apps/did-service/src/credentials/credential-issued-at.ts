import type { VerificationSuccess } from './verification.js';

/**
 * The earliest issuance time (Unix seconds) of the VCs a presentation holds: each VC's JWT `nbf`,
 * else its `iat`; a VC with neither counts as issued at 0 (as old as can be). verify-login-vp
 * and OpenID4VP verify-response answer it as `credentialIssuedAt`: auth-service refuses a
 * credential issued before the user's last reset (docs/api.md §12), also before its status
 * bit is set. undefined for no VC at all.
 */
export function credentialIssuedAt(
  credentials: readonly Pick<VerificationSuccess, 'payload'>[],
): number | undefined {
  let earliest: number | undefined;
  for (const { payload } of credentials) {
    const issued = [payload.nbf, payload.iat].find(
      (t): t is number => typeof t === 'number' && Number.isFinite(t),
    );
    const at = issued === undefined ? 0 : Math.floor(issued);
    if (earliest === undefined || at < earliest) earliest = at;
  }
  return earliest;
}
