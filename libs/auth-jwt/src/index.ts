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
