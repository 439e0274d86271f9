import { Readable } from 'node:stream';
import { describe, expect, it } from '@jest/globals';
import { StepUpRequiredError } from '@itp/client';
import { StdinReader } from './input/read-input.js';
import { describeStepUp, stepUpReauthentication, subjectOf } from './step-up.js';

const jwt = (claims: unknown) => `h.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.s`;
const challenge = (maxAgeSeconds?: number) =>
  new StepUpRequiredError('x', {
    source: 'rest',
    status: 401,
    operation: '/v2/auth/link-address',
    maxAgeSeconds,
  });

describe('step-up in itp', () => {
  it("reads the token's user from its sub, and nothing from what is no JWT", () => {
    expect(subjectOf(jwt({ sub: 'demo', auth_time: 1 }))).toBe('demo');
    for (const token of ['opaque', 'h.!!!.s', jwt({ sub: 7 }), jwt({ sub: '' }), jwt(null)]) {
      expect(subjectOf(token)).toBeUndefined();
    }
  });

  it('says what to do, with the max age when the challenge gave one', () => {
    expect(describeStepUp(challenge())).toMatch(
      /^error \[insufficient_user_authentication\] \(\/v2\/auth\/link-address\): this needs a recent login: run `itp login` and retry\n/,
    );
  });

  it('gives up (undefined) without a user in the token, or without a password source', async () => {
    let logins = 0;
    const deps = {
      passwordFromStdin: false,
      stdin: new StdinReader(Readable.from([])),
      terminal: { input: Readable.from([]), output: { write: () => true } },
      login: async () => {
        logins++;
        throw new Error('not called');
      },
      notify: () => undefined,
    };
    await expect(
      stepUpReauthentication({ ...deps, token: jwt({ sub: 'demo' }) })(challenge(300)),
    ).resolves.toBeUndefined();
    await expect(
      stepUpReauthentication({ ...deps, token: 'opaque', passwordFromStdin: true })(challenge()),
    ).resolves.toBeUndefined();
    expect(logins).toBe(0);
  });
});
