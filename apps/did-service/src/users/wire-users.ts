import { createJwtVerifier } from '@itp/auth-jwt';
import type { Logger } from '@itp/service-kit';
import type { DidConfig } from '../config.js';
import type { UserAuthentication } from '../http/authenticate.js';
import { ActiveUsers } from './active-users.js';
import { AuthServiceUserStatus } from './auth-service-user-status.js';
import type { UserStatusPort } from './user-status-port.js';

/**
 * The users of the public API: auth-service's JWTs (its JWKS), whether an account is still
 * active (auth-service's users/status, cached USER_STATUS_CACHE_MS; `userStatus` instead in
 * tests) and the step-up age of the routes that add a way in.
 */
export function wireUsers(
  config: DidConfig,
  logger: Logger,
  parts: { authServiceToken: string; userStatus?: UserStatusPort | undefined },
): UserAuthentication {
  return {
    verifier: createJwtVerifier({
      jwksUrl: new URL('/v2/auth/.well-known/jwks.json', config.AUTH_SERVICE_URL).toString(),
      issuer: config.JWT_ISSUER,
      audience: config.JWT_AUDIENCE,
    }),
    activeUsers: new ActiveUsers(
      parts.userStatus ??
        new AuthServiceUserStatus({
          baseUrl: config.AUTH_SERVICE_INTERNAL_URL,
          internalApiToken: parts.authServiceToken,
        }),
      { cacheMs: config.USER_STATUS_CACHE_MS, logger },
    ),
    stepUpMaxAgeSeconds: config.STEP_UP_MAX_AGE_SECONDS,
  };
}
