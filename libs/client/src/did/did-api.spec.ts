import { describe, expect, it } from '@jest/globals';
import { createClient } from '../client.js';
import {
  BadRequestError,
  ForbiddenError,
  UnauthorizedError,
  VpRefusedError,
} from '../errors/error-classes.js';
import { fakeFetch } from '../testing/fake-fetch.js';
import type { VerifiableCredential } from '../types.js';

const LIST = 'http://gw/v2/did/status-lists/AAAAAAAAAAAAAAAAAAAAAA';
const JWT = 'eyJhbGciOiJFUzI1NksifQ.eyJ2YyI6e319.c2ln';

/** A VC as create-vc answers it (only what the SDK passes on matters here). */
const vc = {
  '@context': [
    'https://www.w3.org/2018/credentials/v1',
    'https://www.w3.org/ns/credentials/status/v1',
  ],
  type: ['VerifiableCredential'],
  issuer: { id: 'did:ethr:0x1' },
  issuanceDate: '2026-01-01T00:00:00.000Z',
  credentialSubject: { id: 'did:ethr:0x2', sub: 'demo' },
  credentialStatus: {
    id: `${LIST}#7`,
    type: 'BitstringStatusListEntry',
    statusPurpose: 'revocation',
    statusListIndex: '7',
    statusListCredential: LIST,
  },
  proof: { type: 'JwtProof2020', jwt: JWT },
} as unknown as VerifiableCredential;

const revoked = { revoked: true, statusListCredential: LIST, statusListIndex: '7' };

describe('did.revokeVc (POST /v2/did/revoke-vc)', () => {
  it('sends the VC as { vc } or a compact JWT as { jwt }, with the bearer JWT, and returns the answer', async () => {
    const { fetch, seen } = fakeFetch(() => ({ body: revoked }));
    const itp = createClient({ baseUrl: 'http://gw', fetch, token: 'client-jwt' });
    await expect(itp.did.revokeVc(vc)).resolves.toEqual(revoked);
    await expect(itp.did.revokeVc(JWT, { token: 'call-jwt' })).resolves.toEqual(revoked);
    expect(
      seen.map(({ url, method, headers, body }) => [url, method, headers['authorization'], body]),
    ).toEqual([
      ['http://gw/v2/did/revoke-vc', 'POST', 'Bearer client-jwt', { vc }],
      ['http://gw/v2/did/revoke-vc', 'POST', 'Bearer call-jwt', { jwt: JWT }],
    ]);
  });

  it('sends an SD-JWT VC as { sdJwt } (the string the wallet received, disclosures and all)', async () => {
    const sdJwt = `${JWT}~WyJzYWx0IiwibmFtZSIsIkRlbW8iXQ~`;
    const tokenStatus = {
      revoked: true,
      statusListCredential: 'http://gw/v2/did/token-status-lists/1',
      statusListIndex: '42',
    };
    const { fetch, seen } = fakeFetch(() => ({ body: tokenStatus }));
    const itp = createClient({ baseUrl: 'http://gw', fetch, token: 'client-jwt' });
    await expect(itp.did.revokeVc({ sdJwt })).resolves.toEqual(tokenStatus);
    expect(seen.map(({ url, headers, body }) => [url, headers['authorization'], body])).toEqual([
      ['http://gw/v2/did/revoke-vc', 'Bearer client-jwt', { sdJwt }],
    ]);
  });

  it('sends no Authorization header without a token (the service answers 401)', async () => {
    const { fetch, seen } = fakeFetch(() => ({
      status: 401,
      body: { error: { code: '401', message: 'Missing bearer token' } },
    }));
    const err = await createClient({ baseUrl: 'http://gw', fetch })
      .did.revokeVc(vc)
      .catch((e: unknown) => e);
    expect(seen[0]?.headers['authorization']).toBeUndefined();
    expect(err).toBeInstanceOf(UnauthorizedError);
    expect(err).not.toBeInstanceOf(VpRefusedError);
  });

  it('maps the refusals to the SDK error classes: 400 not ours, 403 another user’s VC', async () => {
    const answers: Record<string, { status: number; message: string }> = {
      foreign: { status: 400, message: 'not a credential of this service' },
      theirs: { status: 403, message: 'the credential was issued to another user' },
    };
    const { fetch } = fakeFetch((req) => {
      const { status, message } = answers[(req.body as { jwt: string }).jwt]!;
      return { status, body: { error: { code: String(status), message } } };
    });
    const did = createClient({ baseUrl: 'http://gw', fetch, token: 't' }).did;
    const foreign = await did.revokeVc('foreign').catch((e: unknown) => e);
    expect(foreign).toBeInstanceOf(BadRequestError);
    expect(foreign).toMatchObject({
      code: '400',
      status: 400,
      source: 'rest',
      operation: '/v2/did/revoke-vc',
      message: 'not a credential of this service',
    });
    const theirs = await did.revokeVc('theirs').catch((e: unknown) => e);
    expect(theirs).toBeInstanceOf(ForbiddenError);
    expect(theirs).toMatchObject({ code: '403', status: 403, operation: '/v2/did/revoke-vc' });
  });
});

describe('did.credentialOffer (POST /v2/did/credential-offer)', () => {
  it('sends txCode (default true) and userInfo with the bearer JWT and returns the offer', async () => {
    const offer = {
      credentialOfferUri:
        'openid-credential-offer://?credential_offer_uri=http%3A%2F%2Fgw%2Fv2%2Fdid%2Foid4vci%2Foffer%2Fx',
      txCode: '123456',
      expiresInSeconds: 300,
    };
    const { fetch, seen } = fakeFetch(() => ({ body: offer }));
    const itp = createClient({ baseUrl: 'http://gw', fetch, token: 'client-jwt' });
    await expect(
      itp.did.credentialOffer({ txCode: false, userInfo: { name: 'Demo' } }),
    ).resolves.toEqual(offer);
    await itp.did.credentialOffer();
    expect(
      seen.map(({ url, method, headers, body }) => [url, method, headers['authorization'], body]),
    ).toEqual([
      [
        'http://gw/v2/did/credential-offer',
        'POST',
        'Bearer client-jwt',
        { txCode: false, userInfo: { name: 'Demo' } },
      ],
      [
        'http://gw/v2/did/credential-offer',
        'POST',
        'Bearer client-jwt',
        { txCode: true, userInfo: {} },
      ],
    ]);
  });

  it('sends format only when given: dc+sd-jwt asks for an SD-JWT VC, jwt_vc_json said explicitly', async () => {
    const offer = {
      credentialOfferUri:
        'openid-credential-offer://?credential_offer_uri=http%3A%2F%2Fgw%2Fv2%2Fdid%2Foid4vci%2Foffer%2Fy',
      txCode: '654321',
      expiresInSeconds: 300,
    };
    const { fetch, seen } = fakeFetch(() => ({ body: offer }));
    const itp = createClient({ baseUrl: 'http://gw', fetch, token: 'client-jwt' });
    await expect(
      itp.did.credentialOffer({ format: 'dc+sd-jwt', userInfo: { name: 'Demo' } }),
    ).resolves.toEqual(offer);
    await itp.did.credentialOffer({ format: 'jwt_vc_json', txCode: false });
    expect(seen.map(({ body }) => body)).toEqual([
      { txCode: true, userInfo: { name: 'Demo' }, format: 'dc+sd-jwt' },
      { txCode: false, userInfo: {}, format: 'jwt_vc_json' },
    ]);
  });
});
