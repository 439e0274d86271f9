import { oid4vpRouter } from '../http/oid4vp-router.js';
import { authPublicUrl } from '../config.js';
import type { FeatureEdge } from '../feature.js';
import type { SharedResources } from '../wire-shared.js';
import { Oid4vpLogin } from './oid4vp-login.js';
import { Oid4vpSessionStore } from './oid4vp-session-store.js';
import { OwnSdJwtVcCheck } from './own-sd-jwt-vc-check.js';

/**
 * OpenID4VP (docs/api.md §8): a wallet approves a web-site login request (its `amr` is `vp`,
 * collected as an approved request) with this service's jwt_vc_json VC (did-service checks it) or
 * its SD-JWT VC (checked here against the own issuers' roots). Its routes are what wallets call (OAuth error bodies).
 */
export function wireOid4vp(shared: SharedResources): FeatureEdge & { oid4vp: Oid4vpLogin } {
  const { config, clock, logger } = shared;
  const publicUrl = authPublicUrl(config);
  const oid4vp = new Oid4vpLogin(
    {
      verifier: shared.didService,
      // This service's own SD-JWT VCs, against the own issuers' roots only.
      ownSdJwtVcs: new OwnSdJwtVcCheck(
        { ownIssuers: shared.ownIssuers, ...(clock ? { clock } : {}) },
        { publicUrl },
      ),
      sessions: new Oid4vpSessionStore(shared.kv),
      marks: shared.oneTimeMarks,
      loginRequests: shared.loginRequests,
      logger,
    },
    {
      publicUrl,
      resultGraceMs: config.LOGIN_RESULT_GRACE_SECONDS * 1000,
      ...(clock ? { clock } : {}),
    },
  );
  return {
    oid4vp,
    routes: [
      {
        path: '/v2/auth/oid4vp',
        router: oid4vpRouter({ oid4vp, bodyLimitBytes: config.BODY_LIMIT_BYTES, logger }),
      },
    ],
  };
}
