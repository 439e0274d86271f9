import type { DidConfig } from '../config.js';
import type { CredentialContext } from '../credentials/credential-context.js';
import type { HolderBindings } from '../db/holder-bindings.js';
import type { LoginPresentationDeps } from './verify-login-presentation.js';

/**
 * VP logins (auth-service's verify-login-vp): a VP's credentials verify like any others, its
 * holder DID must be bound to a user, and it is fresh (VP_LOGIN_MAX_AGE_SECONDS by default).
 */
export function wireLogin(
  config: DidConfig,
  context: CredentialContext,
  bindings: HolderBindings,
): LoginPresentationDeps {
  return { ...context, bindings, maxAgeSeconds: config.VP_LOGIN_MAX_AGE_SECONDS };
}
