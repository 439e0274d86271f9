import { describe, expect, it } from '@jest/globals';
import { createClient } from '../client.js';
import {
  AbortedError,
  InvalidCredentialsError,
  NetworkError,
  ServiceUnavailableError,
  TimeoutError,
  UnexpectedResponseError,
} from '../errors/error-classes.js';
import { fakeFetch } from '../testing/fake-fetch.js';
import type { FetchLike } from '../types.js';
import { parseRetryAfter } from './retry-after.js';

/** A fetch that answers only when aborted (with the abort error, as real fetch does). */
const hanging: FetchLike = (_url, init) =>
  new Promise((_resolve, reject) => {
    init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
  });

const VC = {
  '@context': ['https://www.w3.org/2018/credentials/v1'],
  type: ['VerifiableCredential'],
  issuer: { id: 'did:ethr:0x1' },
  issuanceDate: '2026-01-01T00:00:00.000Z',
  credentialSubject: {},
  proof: { type: 'JwtProof2020' as const, jwt: 'a.b.c' },
};

describe('HTTP transport', () => {
  it('sends JSON with the client headers, the bearer JWT only where the API takes one', async () => {
    const { fetch, seen } = fakeFetch(() => ({ body: {} }));
    const itp = createClient({
      baseUrl: 'http://gw/',
      fetch,
      headers: { 'x-trace': '1' },
      token: 'jwt-1',
    });
    await itp.did.createVc({ holder: 'did:ethr:0x1', issuer: 'did:ethr:0x2' });
    await itp.did.verifyVc(VC);
    await itp.withToken('jwt-2').did.createDid({ alias: 'a', address: '0x1', secretKey: 's' });
    await itp.did.createVp(
      { holder: 'did:ethr:0x1', verifier: 'did:ethr:0x3', credentials: [VC] },
      { token: 'jwt-3' },
    );
    expect(seen.map((r) => [r.url, r.headers['authorization'], r.headers['x-trace']])).toEqual([
      ['http://gw/v2/did/create-vc', 'Bearer jwt-1', '1'],
      ['http://gw/v2/did/verify-vc', undefined, '1'],
      ['http://gw/v2/did/create-did', 'Bearer jwt-2', '1'],
      ['http://gw/v2/did/create-vp', 'Bearer jwt-3', '1'],
    ]);
    expect(seen[0]?.headers['content-type']).toBe('application/json');
    expect(seen[0]?.body).toEqual({ holder: 'did:ethr:0x1', issuer: 'did:ethr:0x2', userInfo: {} });
  });

  it('authenticates the relying party with HTTP Basic and cancels with accept */*', async () => {
    const { fetch, seen } = fakeFetch((req) =>
      req.url.endsWith('/cancel-auth-user-by-app')
        ? { status: 200 }
        : { body: { requestId: 'x', waitTime: 60 } },
    );
    const rp = createClient({ baseUrl: 'http://gw', fetch }).auth.relyingParty({
      clientId: 'démo',
      clientSecret: 's:t',
    });
    await rp.startLogin({ requestId: 'http://localhost:8080/?' });
    await rp.cancelLogin('x');
    const basic = `Basic ${Buffer.from('démo:s:t', 'utf8').toString('base64')}`;
    expect(seen.map((r) => [r.headers['authorization'], r.headers['accept']])).toEqual([
      [basic, 'application/json'],
      [basic, '*/*'],
    ]);
    expect(seen[0]?.body).toEqual({ requestId: 'http://localhost:8080/?' });
  });

  it('maps a REST error by endpoint and carries Retry-After of a 503', async () => {
    const { fetch } = fakeFetch((req) =>
      req.url.endsWith('/auth-user')
        ? { status: 401, body: { error: { code: '401', message: 'Invalid id or password' } } }
        : {
            status: 503,
            body: { error: { code: '503', message: 'down' } },
            headers: { 'retry-after': '9' },
          },
    );
    const itp = createClient({ baseUrl: 'http://gw', fetch });
    await expect(itp.auth.login({ id: 'demo', password: 'x' })).rejects.toBeInstanceOf(
      InvalidCredentialsError,
    );
    const down = await itp.did.issuers().catch((e: unknown) => e);
    expect(down).toBeInstanceOf(ServiceUnavailableError);
    expect((down as ServiceUnavailableError).retryAfter).toBe(9);
  });

  it('a 2xx answer that is not JSON is UnexpectedResponseError', async () => {
    const { fetch } = fakeFetch(() => ({ body: '<html>' }));
    await expect(
      createClient({ baseUrl: 'http://gw', fetch }).did.issuers(),
    ).rejects.toBeInstanceOf(UnexpectedResponseError);
  });

  it('turns a timeout, an abort and a network failure into their classes', async () => {
    const slow = createClient({ baseUrl: 'http://gw', fetch: hanging, timeoutMs: 5 });
    await expect(slow.block.getBlockNumber()).rejects.toBeInstanceOf(TimeoutError);
    const controller = new AbortController();
    const call = createClient({
      baseUrl: 'http://gw',
      fetch: hanging,
      timeoutMs: 0,
    }).block.getBlockNumber({
      signal: controller.signal,
    });
    controller.abort();
    await expect(call).rejects.toBeInstanceOf(AbortedError);
    const broken: FetchLike = () => Promise.reject(new TypeError('fetch failed'));
    const err = await createClient({ baseUrl: 'http://gw', fetch: broken })
      .block.getBlockNumber()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).cause).toBeInstanceOf(TypeError);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('12', now)).toBe(12);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});
