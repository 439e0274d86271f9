/**
 * Presentation requests in the SDK (docs/api.md §14): a site's create and result calls, with its
 * client credentials (HTTP Basic), and the errors of the result poll as their classes.
 */
import { describe, expect, it } from '@jest/globals';
import { createClient } from '../client.js';
import {
  BadRequestError,
  InvalidClientError,
  PresentationPendingError,
  PresentationRequestUnknownError,
  SlowDownError,
} from '../errors/error-classes.js';
import { fakeFetch } from '../testing/fake-fetch.js';
import type { PresentationOutcome, PresentationRequestCreated } from '../types.js';

const SITE = { clientId: 'shop', clientSecret: 'shop-secret' };
const BASIC = `Basic ${Buffer.from('shop:shop-secret').toString('base64')}`;
const QUERY = {
  credentials: [
    {
      id: 'pid',
      format: 'dc+sd-jwt',
      meta: { vct_values: ['urn:eudi:pid:1'] },
      claims: [{ path: ['age_over_18'] }],
    },
  ],
};
const created: PresentationRequestCreated = {
  requestId: 'r'.repeat(43),
  openid4vpUri: 'openid4vp://?client_id=x509_san_dns%3Aapi.example&request_uri=https%3A%2F%2Fx',
  expiresInSeconds: 120,
};
const verified: PresentationOutcome = {
  status: 'verified',
  credentials: {
    pid: [
      {
        format: 'dc+sd-jwt',
        issuer: 'https://issuer.example',
        claims: { age_over_18: true },
        status: 'valid',
      },
    ],
  },
};

const error = (status: number, code: string) => ({
  status,
  body: { error: { code, message: `HTTP ${status}` } },
});

describe('relyingParty(credentials).presentationRequests', () => {
  it('creates a request (dcql_query, purpose, waitTime) and collects its outcome with the site’s credentials', async () => {
    const { fetch, seen } = fakeFetch((req) => ({
      body: req.url.endsWith('/result') ? verified : created,
    }));
    const site = createClient({ baseUrl: 'http://gw', fetch }).auth.relyingParty(SITE);

    await expect(
      site.presentationRequests.create({ dcqlQuery: QUERY, purpose: 'Age check', waitTime: 120 }),
    ).resolves.toEqual(created);
    await expect(site.presentationRequests.result(created.requestId)).resolves.toEqual(verified);
    expect(seen.map((r) => [r.method, r.url, r.headers['authorization'], r.body])).toEqual([
      [
        'POST',
        'http://gw/v2/auth/presentation-requests',
        BASIC,
        { dcql_query: QUERY, purpose: 'Age check', waitTime: 120 },
      ],
      [
        'POST',
        'http://gw/v2/auth/presentation-requests/result',
        BASIC,
        { requestId: created.requestId },
      ],
    ]);
  });

  it('sends neither purpose nor waitTime when not given (the service’s default wait)', async () => {
    const { fetch, seen } = fakeFetch(() => ({ body: created }));
    await createClient({ baseUrl: 'http://gw', fetch })
      .auth.relyingParty(SITE)
      .presentationRequests.create({ dcqlQuery: QUERY });
    expect(seen[0]?.body).toEqual({ dcql_query: QUERY });
  });

  it('throws the result poll’s errors as their classes: pending, slow_down, unknown', async () => {
    const answers = [
      error(401, '401'),
      { ...error(429, 'slow_down'), headers: { 'retry-after': '5' } },
      error(400, '400'),
    ];
    const { fetch } = fakeFetch(() => answers.shift() ?? error(500, '500'));
    const site = createClient({ baseUrl: 'http://gw', fetch }).auth.relyingParty(SITE);
    await expect(site.presentationRequests.result('r')).rejects.toBeInstanceOf(
      PresentationPendingError,
    );
    await expect(site.presentationRequests.result('r')).rejects.toBeInstanceOf(SlowDownError);
    await expect(site.presentationRequests.result('r')).rejects.toBeInstanceOf(
      PresentationRequestUnknownError,
    );
  });

  it('throws BadRequestError for a query the service refuses, InvalidClientError for wrong credentials', async () => {
    const answers = [
      error(400, '400'),
      { ...error(401, 'invalid_client'), headers: { 'www-authenticate': 'Basic' } },
    ];
    const { fetch } = fakeFetch(() => answers.shift() ?? error(500, '500'));
    const site = createClient({ baseUrl: 'http://gw', fetch }).auth.relyingParty(SITE);
    const refused = site.presentationRequests.create({ dcqlQuery: { credentials: [] } });
    await expect(refused).rejects.toBeInstanceOf(BadRequestError);
    await expect(refused).rejects.not.toBeInstanceOf(PresentationRequestUnknownError);
    await expect(site.presentationRequests.create({ dcqlQuery: QUERY })).rejects.toBeInstanceOf(
      InvalidClientError,
    );
  });
});
