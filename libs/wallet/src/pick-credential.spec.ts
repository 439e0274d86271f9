import { beforeAll, describe, expect, it } from '@jest/globals';
import type { HeldCredential } from './held-credential.js';
import { pickCredential } from './pick-credential.js';
import { walletPackages } from './wallet-packages.js';

const HOLDER = 'did:ethr:0x00000000000000000000000000000000000000aa';
const held = (types: string[], subject = HOLDER): HeldCredential => ({
  jwt: `jwt-of-${types.join('+')}-${subject}`,
  types,
  subject,
  claims: { type: types, credentialSubject: { id: subject, name: 'Demo' } },
});
const query = (...credentials: object[]) => ({ credentials });
const PROFILE = {
  id: 'profile',
  format: 'jwt_vc_json',
  meta: { type_values: [['VerifiableCredential', 'Profile']] },
};

describe('pickCredential', () => {
  beforeAll(() => walletPackages());

  it('picks the first query a credential satisfies, and that credential', () => {
    const other = { ...PROFILE, id: 'other', meta: { type_values: [['Other']] } };
    const profile = held(['VerifiableCredential', 'Profile']);
    expect(
      pickCredential(query(other, PROFILE), [held(['VerifiableCredential']), profile], HOLDER),
    ).toEqual({ queryId: 'profile', credential: profile });
  });

  it('matches any one of the type sets (e.g. the JSON-LD expanded types)', () => {
    const expanded = ['https://example.org#Profile'];
    const anyOf = { ...PROFILE, meta: { type_values: [['Profile', 'Missing'], expanded] } };
    const vc = held(['VerifiableCredential', ...expanded]);
    expect(pickCredential(query(anyOf), [vc]).credential).toBe(vc);
  });

  it('offers only credentials issued to the holder, case-insensitively, when a holder is named', () => {
    const mine = held(
      ['VerifiableCredential', 'Profile'],
      HOLDER.toUpperCase().replace('DID:ETHR', 'did:ethr'),
    );
    expect(pickCredential(query(PROFILE), [mine], HOLDER).credential).toBe(mine);
    const theirs = held(['VerifiableCredential', 'Profile'], 'did:ethr:0xother');
    expect(() => pickCredential(query(PROFILE), [theirs], HOLDER)).toThrow(
      `no given credential issued to ${HOLDER} matches the request's query (profile: jwt_vc_json)`,
    );
    expect(pickCredential(query(PROFILE), [theirs]).credential).toBe(theirs);
  });

  it('refuses a request without credential queries, an invalid query, and a query nothing meets', () => {
    expect(() => pickCredential(undefined, [])).toThrow(
      expect.objectContaining({
        code: 'invalid_request',
        message: expect.stringMatching(/no DCQL/),
      }),
    );
    expect(() => pickCredential(query({ id: 'x' }), [])).toThrow(
      expect.objectContaining({ code: 'invalid_request' }),
    );
    expect(() => pickCredential(query(PROFILE), [held(['VerifiableCredential'])])).toThrow(
      expect.objectContaining({
        code: 'no_matching_credential',
        message: "no credential matches the request's query (profile: jwt_vc_json)",
      }),
    );
  });
});
