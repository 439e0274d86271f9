import { describe, expect, it } from '@jest/globals';
import { parseWwwAuthenticate, stepUpChallengeOf } from './www-authenticate.js';

/** The challenge auth-service and did-service send (docs/api.md §12). */
const SERVICE_CHALLENGE =
  'Bearer error="insufficient_user_authentication", ' +
  'error_description="A more recent authentication is required", max_age=300';

describe('WWW-Authenticate (RFC 9110 §11.6.1, RFC 6750, RFC 9470)', () => {
  it("reads the services' step-up challenge", () => {
    expect(parseWwwAuthenticate(SERVICE_CHALLENGE)).toEqual([
      {
        scheme: 'Bearer',
        params: {
          error: 'insufficient_user_authentication',
          error_description: 'A more recent authentication is required',
          max_age: '300',
        },
      },
    ]);
    expect(stepUpChallengeOf(SERVICE_CHALLENGE)).toEqual({
      maxAgeSeconds: 300,
      description: 'A more recent authentication is required',
    });
  });

  it("reads RFC 9470's examples: acr_values, and max_age alone", () => {
    expect(
      stepUpChallengeOf(
        'Bearer error="insufficient_user_authentication", error_description="A different ' +
          'authentication level is required", acr_values="myACR urn:mace:incommon:iap:silver"',
      ),
    ).toEqual({
      acrValues: ['myACR', 'urn:mace:incommon:iap:silver'],
      description: 'A different authentication level is required',
    });
    expect(
      stepUpChallengeOf(
        'Bearer error="insufficient_user_authentication", ' +
          'error_description="More recent authentication is required", max_age="5"',
      )?.maxAgeSeconds,
    ).toBe(5);
  });

  it('finds the Bearer challenge among several, with token68 challenges and any case', () => {
    const header =
      'Negotiate a87421000492aa874209af8bc028==, Basic realm="simple", ' +
      'bearer ERROR="insufficient_user_authentication", Max_Age=60';
    expect(parseWwwAuthenticate(header)).toEqual([
      { scheme: 'Negotiate', params: {}, token68: 'a87421000492aa874209af8bc028==' },
      { scheme: 'Basic', params: { realm: 'simple' } },
      { scheme: 'bearer', params: { error: 'insufficient_user_authentication', max_age: '60' } },
    ]);
    expect(stepUpChallengeOf(header)?.maxAgeSeconds).toBe(60);
    expect(parseWwwAuthenticate('Basic, Bearer')).toEqual([
      { scheme: 'Basic', params: {} },
      { scheme: 'Bearer', params: {} },
    ]);
  });

  it('keeps commas, quotes and backslashes inside quoted strings; spaces around = and empty elements', () => {
    expect(
      parseWwwAuthenticate(
        'Bearer ,error_description = "a, \\"b\\" \\\\ c" ,, error= insufficient_user_authentication ,',
      ),
    ).toEqual([
      {
        scheme: 'Bearer',
        params: { error_description: 'a, "b" \\ c', error: 'insufficient_user_authentication' },
      },
    ]);
  });

  it('takes the first of a repeated parameter and a __proto__ parameter as a parameter', () => {
    const [challenge] = parseWwwAuthenticate('Bearer max_age=1, max_age=999, __proto__="x"');
    expect(challenge?.params['max_age']).toBe('1');
    expect(Object.hasOwn(challenge?.params ?? {}, '__proto__')).toBe(true);
  });

  it('stops at a malformed part, keeping what came before it', () => {
    expect(
      parseWwwAuthenticate('Bearer error="insufficient_user_authentication", max_age=300, "x'),
    ).toEqual([
      { scheme: 'Bearer', params: { error: 'insufficient_user_authentication', max_age: '300' } },
    ]);
    expect(parseWwwAuthenticate('Bearer error="insufficient_user_auth')).toEqual([
      { scheme: 'Bearer', params: {} },
    ]);
    expect(parseWwwAuthenticate('realm="x"')).toEqual([]);
    // A bare `name=` after the scheme is a token68 by the grammar, and no parameter may follow.
    expect(parseWwwAuthenticate('Bearer max_age=, error="x"')).toEqual([
      { scheme: 'Bearer', params: {}, token68: 'max_age=' },
    ]);
  });

  it('has no step-up challenge without the error, for another error, or for nothing', () => {
    expect(stepUpChallengeOf('Bearer error="invalid_token"')).toBeUndefined();
    expect(stepUpChallengeOf('Basic error="insufficient_user_authentication"')).toBeUndefined();
    expect(stepUpChallengeOf('Bearer realm="x"')).toBeUndefined();
    expect(stepUpChallengeOf(undefined)).toBeUndefined();
    expect(stepUpChallengeOf('')).toBeUndefined();
    // A max_age that is not a number of seconds is left out, the challenge stays.
    expect(
      stepUpChallengeOf('Bearer error="insufficient_user_authentication", max_age="soon"'),
    ).toEqual({});
  });
});
