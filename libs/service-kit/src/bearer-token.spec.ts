import { describe, expect, it } from '@jest/globals';
import { bearerToken } from './bearer-token.js';

const req = (authorization?: string | string[]) => ({ headers: { authorization } });

describe('bearerToken', () => {
  it('reads the token of a Bearer header, scheme case-insensitive', () => {
    expect(bearerToken(req('Bearer abc.def.ghi'))).toBe('abc.def.ghi');
    expect(bearerToken(req('bearer abc.def-_ghi'))).toBe('abc.def-_ghi');
    expect(bearerToken(req('BEARER   x=='))).toBe('x==');
  });

  it('gives undefined for a missing header, another scheme or a malformed token', () => {
    expect(bearerToken(req())).toBeUndefined();
    expect(bearerToken(req('Basic dXNlcjpwYXNz'))).toBeUndefined();
    expect(bearerToken(req('Bearer'))).toBeUndefined();
    expect(bearerToken(req('Bearer a b'))).toBeUndefined();
    expect(bearerToken(req('Bearer a"b'))).toBeUndefined();
    expect(bearerToken(req(['Bearer a', 'Bearer b']))).toBeUndefined();
  });
});
