export {
  JWT_ALGORITHM,
  createJwtVerifier,
  createKeySetJwtVerifier,
  type JwtVerifier,
  type JwtVerifierOptions,
  type KeySetVerifierOptions,
  type VerifiedJwt,
} from './jwt-verifier.js';
export { KeySetUnavailableError } from './to-auth-error.js';
export {
  TOKEN_ENDED_MESSAGE,
  USER_INACTIVE_MESSAGE,
  assertFreshAuthentication,
  assertTokenCurrent,
  authTimeOf,
  issuedAtFor,
  nextTokensValidAfter,
  type AccountEpoch,
} from './account-checks.js';
