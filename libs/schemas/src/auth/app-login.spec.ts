import { describe, expect, it } from '@jest/globals';
import {
  authUserByAppRequestSchema,
  authUserResultByAppRequestSchema,
  cancelAuthUserByAppRequestSchema,
} from './app-login.js';

describe('web-site login schemas', () => {
  it('default waitTime to 60 seconds and allow 1..600', () => {
    expect(authUserByAppRequestSchema.parse({ requestId: 'https://s/?' })).toEqual({
      requestId: 'https://s/?',
      waitTime: 60,
    });
    expect(authUserByAppRequestSchema.parse({ requestId: 'x', waitTime: 600 }).waitTime).toBe(600);
    for (const waitTime of [0, 601, 2.5, '60', null]) {
      expect(authUserByAppRequestSchema.safeParse({ requestId: 'x', waitTime }).success).toBe(
        false,
      );
    }
  });

  it('ignore waitTime on cancel and result', () => {
    expect(cancelAuthUserByAppRequestSchema.parse({ requestId: 'r', waitTime: 'junk' })).toEqual({
      requestId: 'r',
    });
    expect(authUserResultByAppRequestSchema.parse({ requestId: 'r', waitTime: -1 })).toEqual({
      requestId: 'r',
    });
    expect(authUserResultByAppRequestSchema.safeParse({ requestId: '' }).success).toBe(false);
    expect(
      authUserResultByAppRequestSchema.safeParse({ requestId: 'x'.repeat(2049) }).success,
    ).toBe(false);
  });
});
