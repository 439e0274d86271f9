import { describe, expect, it } from '@jest/globals';
import { failureFromVeramo } from './verification.js';

describe('failureFromVeramo', () => {
  it.each([
    ['invalid_jwt: JWT has expired: exp: 1 < now: 2', undefined, 'expired'],
    ['invalid_jwt: JWT not valid before nbf: 3', undefined, 'not_yet_valid'],
    ['invalid_signature: no matching public key found', 'invalid_signature', 'invalid_signature'],
    ['no_suitable_keys: DID document has no key', undefined, 'invalid_signature'],
    ['Cannot find square root', undefined, 'invalid_signature'],
    [
      'resolver_error: Unable to resolve DID document for did:ethr:x',
      'resolver_error',
      'resolver_error',
    ],
    ['invalid_audience: JWT audience does not match your DID', undefined, 'wrong_audience'],
    [
      'auth_error: Presentation does not contain the mandatory domain',
      'auth_error',
      'wrong_audience',
    ],
    ['invalid_jwt: Incorrect format JWT', 'invalid_jwt', 'invalid_jwt'],
  ])('%s → %s', (message, errorCode, code) => {
    expect(failureFromVeramo({ message, errorCode })).toEqual({
      verified: false,
      error: { code, message: expect.any(String) },
    });
  });

  it('still gives a reason when Veramo gives none', () => {
    expect(failureFromVeramo({})).toEqual({
      verified: false,
      error: { code: 'invalid_jwt', message: 'verification failed' },
    });
  });
});
