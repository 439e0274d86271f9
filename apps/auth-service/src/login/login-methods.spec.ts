import { describe, expect, it } from '@jest/globals';
import type { LoginMethod } from './login-method.js';
import { LoginMethods } from './login-methods.js';

const method = (id: string): LoginMethod<unknown> => ({
  id,
  amr: 'pwd',
  failureLimits: async () => [],
  authenticate: async () => ({ userId: 'alice', amr: 'pwd' }),
});

describe('LoginMethods: the ways in this service offers', () => {
  it('offers what was registered, in registration order, each once', () => {
    const methods = new LoginMethods().register(method('password')).register(method('vp'));
    expect(methods.offers('password')).toBe(true);
    expect(methods.offers('siwe')).toBe(false);
    expect(methods.ids()).toEqual(['password', 'vp']);
    expect(() => methods.register(method('vp'))).toThrow('login method vp registered twice');
  });
});
