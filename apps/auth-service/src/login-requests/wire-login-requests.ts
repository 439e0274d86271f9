import type { FeatureEdge } from '../feature.js';
import { PollThrottle } from '../rate-limit/poll-throttle.js';
import type { SharedResources } from '../wire-shared.js';
import { ApprovedRequestLogin } from './approved-request-login.js';
import { loginRequestsRouter } from './login-requests-router.js';

/**
 * Web-site login requests (docs/api.md §2): the approved request is registered as a login method
 * (`app`, or `vp` for an OpenID4VP approval); the relying parties' routes. `walletUri` gives
 * auth-user-by-app its openid4vpUri (OpenID4VP's start).
 */
export function wireLoginRequests(
  shared: SharedResources,
  walletUri: (requestId: string, waitTimeSeconds: number) => Promise<string | undefined>,
): FeatureEdge & { approvedRequests: ApprovedRequestLogin } {
  const { config } = shared;
  const approvedRequests = new ApprovedRequestLogin(shared.loginRequests);
  shared.loginMethods.register(approvedRequests);
  return {
    approvedRequests,
    routes: [
      {
        path: '/v2/auth',
        router: loginRequestsRouter({
          loginRequests: shared.loginRequests,
          approvedRequests,
          loginResults: shared.loginResults,
          clientAuthenticator: shared.clientAuthenticator,
          pollThrottle: new PollThrottle(shared.kv, config.LOGIN_POLL_MIN_INTERVAL_MS),
          walletUri,
          bodyLimitBytes: config.BODY_LIMIT_BYTES,
        }),
      },
    ],
  };
}
