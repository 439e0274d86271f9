/**
 * Passkeys (docs/api.md §13) in the SDK: auth.passkeys (registration options, register, remove —
 * with the bearer JWT and step-up — and the anonymous authentication options) and
 * auth.loginWithPasskey.
 */
import { describe, expect, it } from '@jest/globals';
import { createClient } from '../client.js';
import {
  NotFoundError,
  PasskeyConflictError,
  PasskeyNotFoundError,
  PasskeyRefusedError,
  StepUpRequiredError,
  TempKeyError,
  UnauthorizedError,
} from '../errors/error-classes.js';
import { fakeFetch, type FakeAnswer, type SeenRequest } from '../testing/fake-fetch.js';
import type {
  LoginResult,
  PasskeyAuthenticationResponse,
  PasskeyRegistrationOptions,
  PasskeyRegistrationResponse,
} from '../types.js';

const creationOptions: PasskeyRegistrationOptions = {
  challenge: 'Y2hhbGxlbmdl',
  rp: { id: 'localhost', name: 'ITP' },
  user: { id: 'dXNlcg', name: 'demo', displayName: 'Demo User' },
  pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
  excludeCredentials: [],
  authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  attestation: 'none',
  timeout: 60000,
};
const registration: PasskeyRegistrationResponse = {
  id: 'AbC-_9',
  rawId: 'AbC-_9',
  type: 'public-key',
  response: { clientDataJSON: 'e30', attestationObject: 'o2M' },
  clientExtensionResults: {},
};
const assertion: PasskeyAuthenticationResponse = {
  id: 'AbC-_9',
  rawId: 'AbC-_9',
  type: 'public-key',
  response: {
    clientDataJSON: 'e30',
    authenticatorData: 'SZY',
    signature: 'MEU',
    userHandle: 'dXM',
  },
  clientExtensionResults: {},
};
const login: LoginResult = {
  token: 'passkey-jwt',
  userId: 'demo',
  name: 'Demo User',
  telNo: null,
  email: 'demo@example.com',
};

const stepUp: FakeAnswer = {
  status: 401,
  body: { error: { code: 'insufficient_user_authentication', message: 'log in again' } },
  headers: {
    'www-authenticate':
      'Bearer error="insufficient_user_authentication", error_description="log in again", max_age=300',
  },
};

const requests = (seen: SeenRequest[]) =>
  seen.map((r) => [r.method, r.url, r.headers['authorization'], r.body]);

describe('passkeys', () => {
  it('asks for registration options and registers with the bearer JWT; the name is sent only when given', async () => {
    const { fetch, seen } = fakeFetch((req) =>
      req.url.endsWith('/registration-options')
        ? { body: creationOptions }
        : {
            status: 201,
            body: {
              id: 'AbC-_9',
              name: (req.body as { name?: string }).name ?? 'Passkey',
              createdAt: '2026-01-06T00:00:00.000Z',
            },
          },
    );
    const me = createClient({ baseUrl: 'http://gw', fetch }).withToken('jwt');
    await expect(me.auth.passkeys.registrationOptions()).resolves.toEqual(creationOptions);
    await expect(me.auth.passkeys.register(registration, 'Laptop')).resolves.toEqual({
      id: 'AbC-_9',
      name: 'Laptop',
      createdAt: '2026-01-06T00:00:00.000Z',
    });
    await expect(me.auth.passkeys.register(registration)).resolves.toEqual({
      id: 'AbC-_9',
      name: 'Passkey',
      createdAt: '2026-01-06T00:00:00.000Z',
    });
    expect(requests(seen)).toEqual([
      ['POST', 'http://gw/v2/auth/passkeys/registration-options', 'Bearer jwt', {}],
      [
        'POST',
        'http://gw/v2/auth/passkeys',
        'Bearer jwt',
        { response: registration, name: 'Laptop' },
      ],
      ['POST', 'http://gw/v2/auth/passkeys', 'Bearer jwt', { response: registration }],
    ]);
  });

  it('409 of register is PasskeyConflictError (not the token API’s TempKeyError)', async () => {
    const { fetch } = fakeFetch(() => ({
      status: 409,
      body: { error: { code: '409', message: 'This passkey is registered already' } },
    }));
    const me = createClient({ baseUrl: 'http://gw', fetch, token: 'jwt' });
    const err = await me.auth.passkeys.register(registration).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PasskeyConflictError);
    expect(err).not.toBeInstanceOf(TempKeyError);
    expect((err as PasskeyConflictError).message).toBe('This passkey is registered already');
  });

  it('removes one; 404 is PasskeyNotFoundError', async () => {
    const { fetch, seen } = fakeFetch((req) =>
      (req.body as { id: string }).id === 'gone'
        ? { status: 404, body: { error: { code: '404', message: 'No such passkey of yours' } } }
        : { body: {} },
    );
    const me = createClient({ baseUrl: 'http://gw', fetch, token: 'jwt' });
    await expect(me.auth.passkeys.remove('AbC-_9')).resolves.toBeUndefined();
    const missing = await me.auth.passkeys.remove('gone').catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(PasskeyNotFoundError);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(requests(seen)).toEqual([
      ['POST', 'http://gw/v2/auth/passkeys/remove', 'Bearer jwt', { id: 'AbC-_9' }],
      ['POST', 'http://gw/v2/auth/passkeys/remove', 'Bearer jwt', { id: 'gone' }],
    ]);
  });

  it('a stale login is StepUpRequiredError; with reauthenticate the request is sent again with the new JWT', async () => {
    const service = () =>
      fakeFetch((req) =>
        req.headers['authorization'] === 'Bearer fresh' ? { body: creationOptions } : stepUp,
      );
    const stale = service();
    const without = createClient({ baseUrl: 'http://gw', fetch: stale.fetch, token: 'old' });
    const err = await without.auth.passkeys.registrationOptions().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StepUpRequiredError);
    expect((err as StepUpRequiredError).maxAgeSeconds).toBe(300);

    const retried = service();
    const withCallback = createClient({
      baseUrl: 'http://gw',
      fetch: retried.fetch,
      token: 'old',
      reauthenticate: () => Promise.resolve('fresh'),
    });
    await expect(withCallback.auth.passkeys.registrationOptions()).resolves.toEqual(
      creationOptions,
    );
    expect(retried.seen.map((r) => r.headers['authorization'])).toEqual([
      'Bearer old',
      'Bearer fresh',
    ]);
  });

  it('logs in with a passkey without a bearer JWT: authentication options, then the assertion', async () => {
    const requestOptions = {
      challenge: 'Y2hhbGxlbmdl',
      rpId: 'localhost',
      allowCredentials: [],
      userVerification: 'required',
      timeout: 60000,
    };
    const { fetch, seen } = fakeFetch((req) =>
      req.url.endsWith('/authentication-options') ? { body: requestOptions } : { body: login },
    );
    const itp = createClient({ baseUrl: 'http://gw', fetch });
    await expect(itp.auth.passkeys.authenticationOptions()).resolves.toEqual(requestOptions);
    await expect(itp.auth.loginWithPasskey(assertion)).resolves.toEqual(login);
    expect(requests(seen)).toEqual([
      ['POST', 'http://gw/v2/auth/passkeys/authentication-options', undefined, {}],
      ['POST', 'http://gw/v2/auth/auth-user-with-passkey', undefined, { response: assertion }],
    ]);
  });

  it('a refused assertion is PasskeyRefusedError', async () => {
    const { fetch } = fakeFetch(() => ({
      status: 401,
      body: { error: { code: '401', message: 'Passkey refused: challenge unknown or used' } },
    }));
    const err = await createClient({ baseUrl: 'http://gw', fetch })
      .auth.loginWithPasskey(assertion)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PasskeyRefusedError);
    expect(err).toBeInstanceOf(UnauthorizedError);
    expect((err as PasskeyRefusedError).message).toBe('Passkey refused: challenge unknown or used');
  });
});
