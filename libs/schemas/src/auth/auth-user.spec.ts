import { describe, expect, it } from '@jest/globals';
import { authUserRequestSchema } from './auth-user.js';
import { loginResultSchema } from './login-result.js';

describe('auth-user schemas', () => {
  it('accept id and password, ignore userType and unknown members', () => {
    expect(
      authUserRequestSchema.parse({ id: 'demo', password: 'pw', userType: 'x', extra: true }),
    ).toEqual({ id: 'demo', password: 'pw', userType: 'x' });
    expect(authUserRequestSchema.parse({ id: 'demo', password: 'pw', token: 'a.b.c' }).token).toBe(
      'a.b.c',
    );
  });

  it('refuse missing, empty, non-string and oversized members', () => {
    for (const bad of [
      {},
      { id: 'demo' },
      { id: '', password: 'pw' },
      { id: 1, password: 'pw' },
      { id: 'demo', password: 'x'.repeat(1025) },
      { id: 'demo', password: 'pw', token: 7 },
      null,
      [],
    ]) {
      expect(authUserRequestSchema.safeParse(bad).success).toBe(false);
    }
  });

  it('describe the login result (telNo may be null)', () => {
    const result = { token: 't', userId: 'u', name: 'n', telNo: null, email: '' };
    expect(loginResultSchema.parse(result)).toEqual(result);
    expect(loginResultSchema.safeParse({ ...result, telNo: undefined }).success).toBe(false);
  });
});
