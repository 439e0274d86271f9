import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { UnauthorizedError } from '@itp/errors';
import { KeySetUnavailableError, toAuthError } from './to-auth-error.js';

/** The only algorithm tokens of this platform use (ES256, P-256). Everything else is refused. */
export const JWT_ALGORITHM = 'ES256';

/** Longer than any token this platform issues; refuses absurd input before parsing it. */
const MAX_TOKEN_LENGTH = 8192;

export interface VerifiedJwt {
  /** The `sub` claim: the id of the user the token was issued to. */
  userId: string;
  claims: JWTPayload;
}

export interface JwtVerifier {
  /**
   * Verifies signature (ES256 only, key by `kid`), `iss`, `aud`, `exp`/`iat`/`nbf` and `sub`.
   * Throws UnauthorizedError (code "401") for any problem with the token, and
   * ServiceUnavailableError (503) when the signing keys cannot be fetched.
   */
  verify(token: string): Promise<VerifiedJwt>;
}

export interface KeySetVerifierOptions {
  /** Resolves the verification key from the token header (a jose local or remote JWKS). */
  keySet: JWTVerifyGetKey;
  issuer: string;
  audience: string;
  /** Allowed clock skew for exp / nbf / iat, in seconds. Default 5. */
  clockToleranceSeconds?: number;
}

export interface JwtVerifierOptions {
  /** e.g. http://auth-service:8081/v2/auth/.well-known/jwks.json */
  jwksUrl: string;
  issuer: string;
  audience: string;
  clockToleranceSeconds?: number;
  /** How long fetched keys are used without asking again. Default 10 minutes. */
  cacheMaxAgeMs?: number;
  /**
   * Minimum time between two fetches: a token with an unknown `kid` makes the verifier fetch the
   * key set again (key rotation), at most once per cooldown. Default 30 s.
   */
  cooldownMs?: number;
  /** Timeout of one JWKS fetch. Default 5 s. */
  timeoutMs?: number;
}

/** Lets "no key with that kid" through (a token problem); anything else is the key set's fault. */
function guardKeySet(keySet: JWTVerifyGetKey): JWTVerifyGetKey {
  return async (header, token) => {
    try {
      return await keySet(header, token);
    } catch (err) {
      if (
        err instanceof errors.JWKSNoMatchingKey ||
        err instanceof errors.JWKSMultipleMatchingKeys ||
        err instanceof errors.JOSENotSupported ||
        err instanceof errors.JWKInvalid
      ) {
        throw err;
      }
      throw new KeySetUnavailableError(err);
    }
  };
}

/** A verifier over any jose key resolver (the auth service uses its own keys this way). */
export function createKeySetJwtVerifier(options: KeySetVerifierOptions): JwtVerifier {
  const getKey = guardKeySet(options.keySet);
  const verifyOptions = {
    algorithms: [JWT_ALGORITHM],
    issuer: options.issuer,
    audience: options.audience,
    clockTolerance: options.clockToleranceSeconds ?? 5,
    requiredClaims: ['sub', 'exp', 'iat'],
  };
  return {
    async verify(token: string): Promise<VerifiedJwt> {
      if (typeof token !== 'string' || token.length === 0 || token.length > MAX_TOKEN_LENGTH) {
        throw new UnauthorizedError('Invalid or expired token', {
          details: { reason: 'missing or oversized' },
        });
      }
      try {
        const { payload } = await jwtVerify(token, getKey, verifyOptions);
        if (typeof payload.sub !== 'string' || payload.sub.length === 0) {
          throw new errors.JWTClaimValidationFailed('"sub" must be a non-empty string', payload);
        }
        return { userId: payload.sub, claims: payload };
      } catch (err) {
        throw toAuthError(err);
      }
    },
  };
}

/**
 * The shared verifier other services use: keys come from the auth service's JWKS over HTTP,
 * cached (cacheMaxAgeMs) and refreshed on an unknown `kid` at most once per cooldown.
 */
export function createJwtVerifier(options: JwtVerifierOptions): JwtVerifier {
  const keySet = createRemoteJWKSet(new URL(options.jwksUrl), {
    cacheMaxAge: options.cacheMaxAgeMs ?? 10 * 60_000,
    cooldownDuration: options.cooldownMs ?? 30_000,
    timeoutDuration: options.timeoutMs ?? 5_000,
  });
  return createKeySetJwtVerifier({
    keySet,
    issuer: options.issuer,
    audience: options.audience,
    clockToleranceSeconds: options.clockToleranceSeconds,
  });
}
