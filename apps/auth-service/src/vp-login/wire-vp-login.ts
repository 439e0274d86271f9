import type { FeatureEdge } from '../feature.js';
import type { SharedResources } from '../wire-shared.js';
import { VpLogin } from './vp-login.js';
import { vpLoginRouter } from './vp-login-router.js';

/**
 * VP login (`vp`, auth-user-with-vp: did-service checks the VP, the replay mark is kept here,
 * then approval and login): registered as a login method, and its route.
 */
export function wireVpLogin(shared: SharedResources): FeatureEdge & { vpLogin: VpLogin } {
  const vpLogin = new VpLogin(
    {
      verifier: shared.didService,
      usedVps: shared.usedLoginProofs,
      loginRequests: shared.loginRequests,
      loginResults: shared.loginResults,
      failuresPerIp: shared.loginFailuresPerIp,
    },
    { maxAgeSeconds: shared.config.VP_LOGIN_MAX_AGE_SECONDS },
  );
  shared.loginMethods.register(vpLogin);
  return {
    vpLogin,
    routes: [{ path: '/v2/auth', router: vpLoginRouter(vpLogin, shared.config.BODY_LIMIT_BYTES) }],
  };
}
