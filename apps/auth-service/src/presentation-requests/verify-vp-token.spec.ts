import { describe, expect, it } from '@jest/globals';
import { PresentationRefusedError } from '@itp/presentations';
import { parseSiteDcqlQuery } from './site-dcql-query.js';
import {
  verifyVpToken,
  type PresentationVerifiers,
  type VerifiedPresentation,
} from './verify-vp-token.js';

// The matching of jwt_vc_json presentations against a site's query (pure logic: the VP's own
// checks are did-service's, here a stand-in answering what did-service verified).
const CONTEXT = {
  clientId: 'x509_san_dns:api.example.test',
  nonce: 'n',
  responseUri: 'https://api.example.test/r',
  jwkThumbprint: new Uint8Array(32),
};
const HOLDER = 'did:ethr:0x2222222222222222222222222222222222222222';
const ISSUER = 'did:ethr:0x1111111111111111111111111111111111111111';

const profile = (claims: Record<string, unknown>): VerifiedPresentation => ({
  format: 'jwt_vc_json',
  issuer: ISSUER,
  type: ['VerifiableCredential', 'Profile'],
  claims: { id: HOLDER, sub: 'alice', ...claims },
});

const verifiers = (answer: VerifiedPresentation[]): PresentationVerifiers => ({
  sdJwtVc: () => Promise.reject(new Error('not an SD-JWT VC')),
  mdoc: () => Promise.reject(new Error('not an mdoc')),
  jwtVc: (vp) =>
    vp === 'vp-jwt' ? Promise.resolve(answer) : Promise.reject(new Error('another VP')),
});

const query = (credential: Record<string, unknown>) =>
  parseSiteDcqlQuery({
    credentials: [{ id: 'profile', format: 'jwt_vc_json', ...credential }],
  });

const rule = (promise: Promise<unknown>) =>
  promise.then(
    () => 'verified',
    (err: unknown) => (err instanceof PresentationRefusedError ? err.rule : String(err)),
  );

describe('verifyVpToken: jwt_vc_json', () => {
  const vc = profile({ name: 'Alice', email: 'alice@example.test' });

  it('answers only the credentialSubject claims the query named', async () => {
    const credentials = await verifyVpToken(
      { profile: ['vp-jwt'] },
      query({
        meta: { type_values: [['VerifiableCredential', 'Profile']] },
        claims: [{ path: ['credentialSubject', 'name'] }],
      }),
      verifiers([vc]),
      CONTEXT,
    );
    expect(credentials).toEqual({
      profile: [
        { format: 'jwt_vc_json', issuer: ISSUER, claims: { name: 'Alice' }, status: 'valid' },
      ],
    });
  });

  it('answers the whole credentialSubject when the query names no claims', async () => {
    const credentials = await verifyVpToken(
      JSON.stringify({ profile: ['vp-jwt'] }),
      query({ meta: { type_values: [['VerifiableCredential']] } }),
      verifiers([vc]),
      CONTEXT,
    );
    expect(credentials.profile?.[0]?.claims).toEqual(vc.claims);
  });

  it('matches types as written or expanded (Appendix B.1.1), and refuses other types', async () => {
    const expanded = query({
      meta: { type_values: [['https://www.w3.org/2018/credentials#VerifiableCredential']] },
    });
    await expect(
      rule(verifyVpToken({ profile: ['vp-jwt'] }, expanded, verifiers([vc]), CONTEXT)),
    ).resolves.toBe('verified');
    const other = query({ meta: { type_values: [['VerifiableCredential', 'Diploma']] } });
    await expect(
      rule(verifyVpToken({ profile: ['vp-jwt'] }, other, verifiers([vc]), CONTEXT)),
    ).resolves.toBe('dcql_not_satisfied');
  });

  it('refuses a claim the credential does not have, and two VCs where one was asked for', async () => {
    const asksPhone = query({
      meta: { type_values: [['VerifiableCredential']] },
      claims: [{ path: ['credentialSubject', 'phone'] }],
    });
    await expect(
      rule(verifyVpToken({ profile: ['vp-jwt'] }, asksPhone, verifiers([vc]), CONTEXT)),
    ).resolves.toBe('dcql_not_satisfied');
    const one = query({ meta: { type_values: [['VerifiableCredential']] } });
    await expect(
      rule(verifyVpToken({ profile: ['vp-jwt'] }, one, verifiers([vc, vc]), CONTEXT)),
    ).resolves.toBe('vp_token_malformed');
  });
});
