import { describe, expect, it } from '@jest/globals';
import { credentialIssuedAt } from './credential-issued-at.js';

const vc = (payload: Record<string, unknown>) => ({ payload });

describe('credentialIssuedAt', () => {
  it('is the earliest nbf of the credentials, else their iat', () => {
    expect(
      credentialIssuedAt([vc({ nbf: 300 }), vc({ nbf: 100, iat: 50 }), vc({ iat: 200 })]),
    ).toBe(100);
    expect(credentialIssuedAt([vc({ iat: 70 }), vc({ nbf: 90 })])).toBe(70);
  });

  it('counts a credential without nbf or iat as the oldest (never as a new one)', () => {
    expect(credentialIssuedAt([vc({ nbf: 100 }), vc({ nbf: 'soon' })])).toBe(0);
    expect(credentialIssuedAt([])).toBeUndefined();
  });
});
