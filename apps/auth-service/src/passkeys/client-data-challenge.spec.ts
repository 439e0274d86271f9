import { describe, expect, it } from '@jest/globals';
import { BadRequestError } from '@itp/errors';
import { clientDataChallenge } from './client-data-challenge.js';

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('clientDataChallenge', () => {
  it('reads the challenge of a response', () => {
    const challenge = 'abcdefghijklmnopqrstuvwxyz012345';
    expect(
      clientDataChallenge({
        response: { clientDataJSON: encode({ type: 'webauthn.get', challenge }) },
      }),
    ).toBe(challenge);
  });

  it('refuses responses without a readable challenge (400, never a 500)', () => {
    for (const response of [
      {},
      { response: {} },
      { response: { clientDataJSON: 42 } },
      { response: { clientDataJSON: 'not json at all' } },
      { response: { clientDataJSON: encode(null) } },
      { response: { clientDataJSON: encode({ challenge: 'short' }) } },
      { response: { clientDataJSON: encode({ challenge: 'has spaces in it, see ..' }) } },
      { response: { clientDataJSON: 'A'.repeat(5000) } },
    ]) {
      expect(() => clientDataChallenge(response)).toThrow(BadRequestError);
    }
  });
});
