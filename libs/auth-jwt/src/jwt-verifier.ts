import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { LRUCache } from 'lru-cache';
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
  /** Remember verified tokens (see VerifiedTokenCacheOptions); default: verify every time. */
  verifiedCache?: VerifiedTokenCacheOptions;
  /** Clock in milliseconds (tests); default Date.now. */
  now?: () => number;
}

/**
 * A token that verified is remembered, so that the same token sent again skips the signature
 * check (an ES256 verification per request shows in the create-vc profile, bench/RESULTS.md).
 * An entry lives at most `maxAgeMs` and never past the
 * token's `exp`. This adds no trust beyond the key set's own cache: keys fetched from the JWKS are
 * used for `cacheMaxAgeMs` (10 minutes) without asking again, so a key removed from the key set
 * already keeps verifying its tokens for longer than a cached result lives. Whether the user is
 * still active is checked by the caller on every request, cached or not.
 */
export interface VerifiedTokenCacheOptions {
  /** Longest time a verified token is remembered. */
  maxAgeMs: number;
  /** Bound on the characters of remembered tokens (tokens are ≤ 8192 characters each). */
  maxChars: number;
}

/** The verified-token cache createJwtVerifier uses unless told otherwise. */
export const DEFAULT_VERIFIED_CACHE: VerifiedTokenCacheOptions = {
  maxAgeMs: 60_000,
  maxChars: 4 * 1024 * 1024,
};

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
  /** Default DEFAULT_VERIFIED_CACHE; `false` verifies every token every time. */
  verifiedCache?: VerifiedTokenCacheOptions | false;
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
  const now = options.now ?? Date.now;
  const cacheOptions = options.verifiedCache;
  const verified = cacheOptions
    ? new LRUCache<string, VerifiedJwt>({
        maxSize: cacheOptions.maxChars,
        sizeCalculation: (_value, token) => token.length,
        // Read the clock on every look-up (no 1 ms timer-cached "now").
        ttlResolution: 0,
        perf: { now },
      })
    : undefined;
  return {
    async verify(token: string): Promise<VerifiedJwt> {
      if (typeof token !== 'string' || token.length === 0 || token.length > MAX_TOKEN_LENGTH) {
        throw new UnauthorizedError('Invalid or expired token', {
          details: { reason: 'missing or oversized' },
        });
      }
      const remembered = verified?.get(token);
      if (remembered) return remembered;
      let result: VerifiedJwt;
      try {
        const { payload } = await jwtVerify(token, getKey, {
          ...verifyOptions,
          currentDate: new Date(now()),
        });
        if (typeof payload.sub !== 'string' || payload.sub.length === 0) {
          throw new errors.JWTClaimValidationFailed('"sub" must be a non-empty string', payload);
        }
        result = Object.freeze({ userId: payload.sub, claims: Object.freeze(payload) });
      } catch (err) {
        throw toAuthError(err);
      }
      if (verified && cacheOptions) {
        // `exp` is required and was checked; never remember a token past it.
        const ttl = Math.min(cacheOptions.maxAgeMs, (result.claims.exp ?? 0) * 1000 - now());
        if (ttl >= 1) verified.set(token, result, { ttl: Math.floor(ttl) });
      }
      return result;
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
    ...(options.verifiedCache === false
      ? {}
      : { verifiedCache: options.verifiedCache ?? DEFAULT_VERIFIED_CACHE }),
  });
}
