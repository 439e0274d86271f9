import { describe, expect, it } from '@jest/globals';
import { InsufficientUserAuthenticationError, UnauthorizedError } from '@itp/errors';
import {
  assertFreshAuthentication,
  assertTokenCurrent,
  authTimeOf,
  issuedAtFor,
  nextTokensValidAfter,
  TOKEN_ENDED_MESSAGE,
} from './account-checks.js';
import type { VerifiedJwt } from './jwt-verifier.js';

const jwt = (claims: Record<string, number>): VerifiedJwt => ({ userId: 'alice', claims });

describe('the account epoch', () => {
  it('refuses a token issued before the epoch and accepts one issued at or after it', () => {
    const account = { active: true, tokensValidAfter: 1_000 };
    expect(() => assertTokenCurrent(jwt({ iat: 999 }), account)).toThrow(TOKEN_ENDED_MESSAGE);
    expect(() => assertTokenCurrent(jwt({ iat: 1_000 }), account)).not.toThrow();
    expect(() => assertTokenCurrent(jwt({ iat: 1_001 }), account)).not.toThrow();
  });

  it('refuses every token of a disabled or unknown user', () => {
    expect(() =>
      assertTokenCurrent(jwt({ iat: 5 }), { active: false, tokensValidAfter: 0 }),
    ).toThrow(UnauthorizedError);
    expect(() => assertTokenCurrent(jwt({ iat: 5 }), undefined)).toThrow(UnauthorizedError);
  });

  it('ends a token issued earlier in the same second as the reset, never one issued after it', () => {
    const resetMs = 1_700_000_000_400;
    const epoch = nextTokensValidAfter(resetMs);
    const before = Math.floor((resetMs - 300) / 1000); // the same second, earlier
    const after = issuedAtFor(resetMs + 100, epoch); // the same second, later
    expect(() =>
      assertTokenCurrent(jwt({ iat: before }), { active: true, tokensValidAfter: epoch }),
    ).toThrow(TOKEN_ENDED_MESSAGE);
    expect(() =>
      assertTokenCurrent(jwt({ iat: after }), { active: true, tokensValidAfter: epoch }),
    ).not.toThrow();
    expect(issuedAtFor(resetMs + 5_000, epoch)).toBe(Math.floor((resetMs + 5_000) / 1000));
  });
});

describe('step-up (RFC 9470)', () => {
  const now = 10_000_000;
  it('accepts a login within max_age and refuses an older one with the challenge', () => {
    expect(() =>
      assertFreshAuthentication(jwt({ iat: 9_800, auth_time: 9_800 }), 300, now * 1000),
    ).toThrow(InsufficientUserAuthenticationError);
    expect(() =>
      assertFreshAuthentication(jwt({ iat: 9_999_800, auth_time: 9_999_700 }), 300, now * 1000),
    ).not.toThrow();
    try {
      assertFreshAuthentication(jwt({ iat: 9_999_000 }), 300, now * 1000);
      throw new Error('not refused');
    } catch (err) {
      expect(err).toBeInstanceOf(InsufficientUserAuthenticationError);
      const challenge = (err as InsufficientUserAuthenticationError).wwwAuthenticate;
      expect(challenge).toMatch(/^Bearer error="insufficient_user_authentication"/);
      expect(challenge).toMatch(/max_age=300$/);
      expect((err as InsufficientUserAuthenticationError).status).toBe(401);
    }
  });

  it('reads auth_time, and iat for a token without it', () => {
    expect(authTimeOf(jwt({ iat: 50, auth_time: 40 }))).toBe(40);
    expect(authTimeOf(jwt({ iat: 50 }))).toBe(50);
  });
});
