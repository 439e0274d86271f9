import { describe, expect, it } from '@jest/globals';
import { accountResponseSchema } from './account.js';
import {
  passkeyAuthenticationOptionsSchema,
  passkeyAuthenticationRequestSchema,
  passkeyRegistrationOptionsSchema,
  passkeyRegistrationRequestSchema,
  passkeyRemoveRequestSchema,
  passkeySummarySchema,
} from './passkeys.js';

/** A RegistrationResponseJSON as Chromium's `credential.toJSON()` gives it (shortened). */
const registration = {
  id: 'AbC-_9',
  rawId: 'AbC-_9',
  type: 'public-key',
  response: {
    clientDataJSON: 'eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIn0',
    attestationObject: 'o2NmbXRkbm9uZQ',
    transports: ['internal'],
    publicKeyAlgorithm: -7,
  },
  clientExtensionResults: { credProps: { rk: true } },
  authenticatorAttachment: 'platform',
};

const assertion = {
  id: 'AbC-_9',
  rawId: 'AbC-_9',
  type: 'public-key',
  response: {
    clientDataJSON: 'eyJ0eXBlIjoid2ViYXV0aG4uZ2V0In0',
    authenticatorData: 'SZYN5YgO',
    signature: 'MEUCIQ',
    userHandle: 'dXNlcg',
  },
  clientExtensionResults: {},
};

describe('passkey schemas', () => {
  it('keep the members of the WebAuthn JSON objects the verifier reads', () => {
    expect(
      passkeyRegistrationRequestSchema.parse({ response: registration, name: 'Laptop' }),
    ).toEqual({ response: registration, name: 'Laptop' });
    expect(passkeyAuthenticationRequestSchema.parse({ response: assertion })).toEqual({
      response: assertion,
    });
  });

  it('refuse responses without their top-level members, of another type, or a bad name', () => {
    const { clientExtensionResults: _omitted, ...withoutExtensions } = registration;
    for (const bad of [
      {},
      { response: withoutExtensions },
      { response: { ...registration, type: 'password' } },
      { response: { ...registration, id: 'not base64url!' } },
      { response: { ...registration, rawId: undefined } },
      { response: { ...registration, response: 'x' } },
      { response: registration, name: '' },
      { response: registration, name: 'x'.repeat(65) },
      { response: registration, name: 'line\nbreak' },
    ]) {
      expect(passkeyRegistrationRequestSchema.safeParse(bad).success).toBe(false);
    }
    expect(passkeyAuthenticationRequestSchema.safeParse({ response: null }).success).toBe(false);
    expect(passkeyRegistrationRequestSchema.parse({ response: registration }).name).toBeUndefined();
    expect(
      passkeyRegistrationRequestSchema.safeParse({ response: registration, name: 'x'.repeat(64) })
        .success,
    ).toBe(true);
  });

  it('remove takes one base64url credential id', () => {
    expect(passkeyRemoveRequestSchema.parse({ id: 'AbC-_9' })).toEqual({ id: 'AbC-_9' });
    for (const bad of [{}, { id: '' }, { id: 'a b' }, { id: 'a=' }, { id: 7 }]) {
      expect(passkeyRemoveRequestSchema.safeParse(bad).success).toBe(false);
    }
  });

  it('describe the options a browser passes to parseCreationOptionsFromJSON / parseRequestOptionsFromJSON', () => {
    const creation = {
      challenge: 'Y2hhbGxlbmdl',
      rp: { id: 'localhost', name: 'ITP' },
      user: { id: 'dXNlcg', name: 'demo', displayName: 'Demo User' },
      pubKeyCredParams: [
        { type: 'public-key', alg: -7 },
        { type: 'public-key', alg: -257 },
      ],
      excludeCredentials: [{ id: 'AbC-_9', type: 'public-key', transports: ['internal'] }],
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      attestation: 'none',
      timeout: 60000,
      extensions: { credProps: true },
    };
    expect(passkeyRegistrationOptionsSchema.parse(creation)).toEqual(creation);
    expect(passkeyRegistrationOptionsSchema.safeParse({ ...creation, rp: {} }).success).toBe(false);
    const request = {
      challenge: 'Y2hhbGxlbmdl',
      rpId: 'localhost',
      allowCredentials: [],
      userVerification: 'required',
      timeout: 60000,
    };
    expect(passkeyAuthenticationOptionsSchema.parse(request)).toEqual(request);
    expect(
      passkeyAuthenticationOptionsSchema.safeParse({ ...request, challenge: undefined }).success,
    ).toBe(false);
  });

  it('list passkeys in the account; an answer without them parses as none', () => {
    const passkey = { id: 'AbC-_9', name: 'Laptop', createdAt: '2026-11-27T08:00:00.000Z' };
    expect(passkeySummarySchema.parse(passkey)).toEqual(passkey);
    expect(passkeySummarySchema.safeParse({ ...passkey, createdAt: 1767225600000 }).success).toBe(
      false,
    );
    const account = { userId: 'demo', name: 'Demo', linkedAddresses: [], sites: [] };
    expect(accountResponseSchema.parse(account).passkeys).toEqual([]);
    const used = { ...passkey, lastUsedAt: '2026-11-27T09:00:00.000Z' };
    expect(accountResponseSchema.parse({ ...account, passkeys: [used] }).passkeys).toEqual([used]);
    expect(accountResponseSchema.safeParse({ ...account, passkeys: [{ id: 'x' }] }).success).toBe(
      false,
    );
  });
});
