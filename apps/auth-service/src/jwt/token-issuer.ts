import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { issuedAtFor, JWT_ALGORITHM } from '@itp/auth-jwt';
import type { SigningKey } from './signing-keys.js';

export interface TokenIssuerOptions {
  issuer: string;
  audience: string;
  ttlSeconds: number;
}

export interface IssuedToken {
  token: string;
  /** `exp` of the token, epoch seconds. */
  expiresAt: number;
}

/** Whom a token is for: the user's id and security epoch (docs/api.md §12). */
export interface TokenSubject {
  id: string;
  /** Epoch seconds: the token's `iat` is never before it. */
  tokensValidAfter: number;
}

/**
 * Signs login JWTs: ES256 with kid; iss, aud, sub (user id), iat, exp, jti, and `auth_time` (when
 * the user proved a factor: every token is the result of a login, so it is the token's `iat`).
 */
export class TokenIssuer {
  constructor(
    private readonly key: SigningKey,
    private readonly options: TokenIssuerOptions,
    private readonly clock: () => number = Date.now,
  ) {}

  /**
   * `notExpiringBefore` (epoch seconds): the token's exp is at least this (used by the token
   * extension so that the new exp is always later than the old one).
   */
  async issue(user: TokenSubject, notExpiringBefore = 0): Promise<IssuedToken> {
    // Never dated before the user's epoch: a login in the very second of a logout everywhere
    // is not ended by it (iat is at most a second ahead, within every verifier's tolerance).
    const iat = issuedAtFor(this.clock(), user.tokensValidAfter);
    const expiresAt = Math.max(iat + this.options.ttlSeconds, notExpiringBefore);
    const token = await new SignJWT({ auth_time: iat })
      .setProtectedHeader({ alg: JWT_ALGORITHM, kid: this.key.kid, typ: 'JWT' })
      .setIssuer(this.options.issuer)
      .setAudience(this.options.audience)
      .setSubject(user.id)
      .setIssuedAt(iat)
      .setExpirationTime(expiresAt)
      .setJti(randomUUID())
      .sign(this.key.privateKey);
    return { token, expiresAt };
  }
}
