import { describe, expect, it } from '@jest/globals';
import { heldCredential } from './held-credential.js';

const jwtOf = (payload: unknown) =>
  ['{"alg":"ES256K"}', JSON.stringify(payload), 'sig']
    .map((part, i) => (i === 2 ? part : Buffer.from(part).toString('base64url')))
    .join('.');

describe('heldCredential', () => {
  it("reads the types, the subject's id and the vc claim of a VC JWT", () => {
    const vc = {
      type: ['VerifiableCredential', 'Profile'],
      credentialSubject: { id: 'did:ethr:0xabc', name: 'Demo' },
    };
    const jwt = jwtOf({ sub: 'did:ethr:0xother', vc });
    expect(heldCredential(jwt)).toEqual({
      jwt,
      types: ['VerifiableCredential', 'Profile'],
      subject: 'did:ethr:0xabc',
      claims: vc,
    });
  });

  it('falls back to `sub` without a credentialSubject id, and to no types without a vc', () => {
    expect(heldCredential(jwtOf({ sub: 'did:ethr:0xabc', vc: { type: ['X'] } }))).toMatchObject({
      types: ['X'],
      subject: 'did:ethr:0xabc',
    });
    expect(heldCredential(jwtOf({}))).toMatchObject({ types: [], subject: undefined, claims: {} });
  });

  it('refuses what is no compact JWT', () => {
    expect(() => heldCredential('a.b')).toThrow(/three parts/);
    expect(() => heldCredential(`x.${Buffer.from('nope').toString('base64url')}.y`)).toThrow();
    expect(() => heldCredential(jwtOf(null))).toThrow(/no claims/);
  });
});
