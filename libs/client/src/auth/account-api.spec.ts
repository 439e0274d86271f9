/**
 * One account, one key ring (docs/api.md §12) in the SDK: auth.account, auth.logoutEverywhere,
 * auth.revokeSite and did.credentials — each with the bearer JWT.
 */
import { describe, expect, it } from '@jest/globals';
import { createClient } from '../client.js';
import {
  NotFoundError,
  SiteGrantNotFoundError,
  UnauthorizedError,
} from '../errors/error-classes.js';
import { fakeFetch } from '../testing/fake-fetch.js';
import type { AccountResponse, IssuedCredentialsResponse } from '../types.js';

const account: AccountResponse = {
  userId: 'demo',
  name: 'Demo User',
  email: 'demo@example.com',
  linkedAddresses: [
    { address: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8', linkedAt: '2026-01-02T00:00:00.000Z' },
  ],
  passkeys: [
    {
      id: 'AbC-_9',
      name: 'Laptop',
      createdAt: '2026-01-06T00:00:00.000Z',
      lastUsedAt: '2026-01-07T00:00:00.000Z',
    },
  ],
  sites: [{ clientId: 'demo-site', name: 'Demo site', grantedAt: '2026-01-03T00:00:00.000Z' }],
};

const credentials: IssuedCredentialsResponse = [
  {
    id: 'urn:uuid:1',
    holder: 'did:ethr:0x1',
    issuedAt: '2026-01-04T00:00:00.000Z',
    status: 'revoked',
    via: 'create-vc',
  },
  {
    id: 'urn:uuid:2',
    holder: 'did:jwk:abc',
    issuedAt: '2026-01-05T00:00:00.000Z',
    expiresAt: '2027-01-05T00:00:00.000Z',
    status: 'valid',
    via: 'openid4vci',
  },
];

describe('the account and its ways in', () => {
  it('reads the account and the issued credentials with the bearer JWT', async () => {
    const { fetch, seen } = fakeFetch((req) => ({
      body: req.url.endsWith('/v2/auth/account') ? account : credentials,
    }));
    const itp = createClient({ baseUrl: 'http://gw', fetch, token: 'jwt' });
    await expect(itp.auth.account()).resolves.toEqual(account);
    await expect(itp.did.credentials()).resolves.toEqual(credentials);
    expect(seen.map((r) => [r.method, r.url, r.headers['authorization'], r.body])).toEqual([
      ['GET', 'http://gw/v2/auth/account', 'Bearer jwt', undefined],
      ['GET', 'http://gw/v2/did/credentials', 'Bearer jwt', undefined],
    ]);
  });

  it('an account answer without passkeys lists none', async () => {
    const { passkeys: _listed, ...before } = account;
    const { fetch } = fakeFetch(() => ({ body: before }));
    const itp = createClient({ baseUrl: 'http://gw', fetch, token: 'jwt' });
    await expect(itp.auth.account()).resolves.toEqual({ ...before, passkeys: [] });
  });

  it('logs out everywhere and revokes a site with the bearer JWT; 404 of revoke-site is SiteGrantNotFoundError', async () => {
    const { fetch, seen } = fakeFetch((req) =>
      req.url.endsWith('/revoke-site') && (req.body as { clientId: string }).clientId === 'nope'
        ? {
            status: 404,
            body: { error: { code: '404', message: 'No site "nope" holds a grant of yours' } },
          }
        : { body: {} },
    );
    const me = createClient({ baseUrl: 'http://gw', fetch }).withToken('jwt');
    await expect(me.auth.revokeSite('demo-site')).resolves.toBeUndefined();
    const missing = await me.auth.revokeSite('nope').catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(SiteGrantNotFoundError);
    expect(missing).toBeInstanceOf(NotFoundError);
    await expect(me.auth.logoutEverywhere()).resolves.toBeUndefined();
    expect(seen.map((r) => [r.method, r.url, r.headers['authorization'], r.body])).toEqual([
      ['POST', 'http://gw/v2/auth/revoke-site', 'Bearer jwt', { clientId: 'demo-site' }],
      ['POST', 'http://gw/v2/auth/revoke-site', 'Bearer jwt', { clientId: 'nope' }],
      ['POST', 'http://gw/v2/auth/logout-everywhere', 'Bearer jwt', {}],
    ]);
  });

  it('a token ended by logout everywhere is UnauthorizedError', async () => {
    const { fetch } = fakeFetch(() => ({
      status: 401,
      body: { error: { code: '401', message: 'This token was ended: log in again' } },
    }));
    const me = createClient({ baseUrl: 'http://gw', fetch, token: 'ended' });
    await expect(me.auth.account()).rejects.toBeInstanceOf(UnauthorizedError);
  });
});
