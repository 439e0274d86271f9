import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { JWT_ALGORITHM } from '@itp/auth-jwt';
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

/** Signs login JWTs: ES256 with kid; iss, aud, sub (user id), iat, exp, jti. */
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
  async issue(userId: string, notExpiringBefore = 0): Promise<IssuedToken> {
    const now = Math.floor(this.clock() / 1000);
    const expiresAt = Math.max(now + this.options.ttlSeconds, notExpiringBefore);
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: JWT_ALGORITHM, kid: this.key.kid, typ: 'JWT' })
      .setIssuer(this.options.issuer)
      .setAudience(this.options.audience)
      .setSubject(userId)
      .setIssuedAt(now)
      .setExpirationTime(expiresAt)
      .setJti(randomUUID())
      .sign(this.key.privateKey);
    return { token, expiresAt };
  }
}
