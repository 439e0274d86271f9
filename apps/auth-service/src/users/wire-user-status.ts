import { resolveInternalToken } from '@itp/crypto';
import { acceptedInternalApiTokens } from '@itp/service-kit';
import type { FeatureEdge } from '../feature.js';
import { internalRouter } from '../http/internal-router.js';
import type { SharedResources } from '../wire-shared.js';
import { UserStatus } from './user-status.js';

/**
 * `/internal/v1/users/status` (may this user still act?), did-service's call: on the internal
 * listener only (INTERNAL_PORT), never the public port; none without did-service's token
 * (INTERNAL_TOKEN_DID_TO_AUTH; dev: the generated file).
 */
export function wireUserStatus(shared: SharedResources): FeatureEdge & {
  userStatus: UserStatus;
  callerToken: string | undefined;
} {
  const { config } = shared;
  const userStatus = new UserStatus(shared.users);
  const callerToken = resolveInternalToken(config, 'INTERNAL_TOKEN_DID_TO_AUTH');
  return {
    userStatus,
    callerToken,
    routes: [],
    internalRoutes: callerToken
      ? [
          {
            path: '/internal/v1',
            router: internalRouter({
              internalApiToken: acceptedInternalApiTokens(
                callerToken,
                config.INTERNAL_API_ACCEPTED_TOKENS,
              ),
              userStatus,
              bodyLimitBytes: config.BODY_LIMIT_BYTES,
            }),
          },
        ]
      : [],
  };
}
