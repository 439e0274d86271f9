import { jwksRouter } from '../http/jwks-router.js';
import type { FeatureEdge } from '../feature.js';
import { FailureBackoff } from '../rate-limit/failure-backoff.js';
import { FailureCounter } from '../rate-limit/failure-counter.js';
import { KnownClients } from '../rate-limit/known-clients.js';
import type { SharedResources } from '../wire-shared.js';
import { PasswordLogin } from './password-login.js';
import { passwordRouter } from './password-router.js';

/**
 * Password login (`pwd`, docs/api.md §2): registered as a login method; `/v2/auth` auth-user and
 * the JWKS of the tokens it issues.
 */
export function wirePasswordLogin(shared: SharedResources): FeatureEdge & {
  passwordLogin: PasswordLogin;
} {
  const { config, kv, loginWindowMs: windowMs } = shared;
  const passwordLogin = new PasswordLogin({
    users: shared.users,
    hasher: shared.hasher,
    results: shared.loginResults,
    ownTokens: shared.ownTokens,
    failuresPerIdAndIp: new FailureCounter(kv, {
      name: 'login-id-ip',
      max: config.LOGIN_MAX_FAILURES_PER_ID,
      windowMs,
    }),
    failuresPerId: new FailureBackoff(kv, {
      name: 'login-id',
      freeFailures: config.LOGIN_MAX_FAILURES_PER_ID,
      windowMs,
      maxDelayMs: config.LOGIN_ID_MAX_DELAY_SECONDS * 1000,
    }),
    failuresPerIp: shared.loginFailuresPerIp,
    knownClients: new KnownClients(kv),
    logger: shared.logger,
  });
  shared.loginMethods.register(passwordLogin);
  return {
    passwordLogin,
    routes: [
      { path: '/v2/auth', router: jwksRouter(shared.jwks, config.JWKS_MAX_AGE_SECONDS) },
      { path: '/v2/auth', router: passwordRouter(passwordLogin, config.BODY_LIMIT_BYTES) },
    ],
  };
}
