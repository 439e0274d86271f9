/**
 * Step-up (RFC 9470, docs/api.md §12) in the SDK: the challenge becomes StepUpRequiredError; with
 * a `reauthenticate` callback the request is retried once with the new JWT.
 */
import { describe, expect, it } from '@jest/globals';
import { createClient } from '../client.js';
import { StepUpRequiredError, UnauthorizedError } from '../errors/error-classes.js';
import { fakeFetch, type FakeAnswer, type SeenRequest } from '../testing/fake-fetch.js';

const CHALLENGE =
  'Bearer error="insufficient_user_authentication", ' +
  'error_description="A more recent authentication is required", max_age=300';
const MESSAGE =
  'This operation needs a login within the last 300 seconds: log in again (password or any ' +
  'other way in) and retry with the new token';

/** The services' step-up answer. */
const stepUp: FakeAnswer = {
  status: 401,
  body: { error: { code: 'insufficient_user_authentication', message: MESSAGE } },
  headers: { 'www-authenticate': CHALLENGE },
};
const VC = { type: ['VerifiableCredential'], proof: { jwt: 'a.b.c' } };

/** A stand-in service: step-up for create-vc unless the bearer is one of `fresh`. */
function service(fresh: string[]) {
  return fakeFetch((req: SeenRequest): FakeAnswer => {
    const bearer = req.headers['authorization']?.replace(/^Bearer /, '');
    if (req.url.endsWith('/create-vc') && !fresh.includes(bearer ?? '')) return stepUp;
    return { body: VC };
  });
}

const bearers = (seen: SeenRequest[]) => seen.map((r) => r.headers['authorization']);
const vcParams = { holder: 'did:ethr:0x1', issuer: 'did:ethr:0x2' };

describe('step-up (insufficient_user_authentication)', () => {
  it('without reauthenticate: StepUpRequiredError with max_age from WWW-Authenticate, no retry', async () => {
    const { fetch, seen } = service([]);
    const itp = createClient({ baseUrl: 'http://gw', fetch, token: 'old' });
    const err = await itp.did.createVc(vcParams).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StepUpRequiredError);
    expect(err).toBeInstanceOf(UnauthorizedError);
    const stepUpError = err as StepUpRequiredError;
    expect([
      stepUpError.code,
      stepUpError.status,
      stepUpError.operation,
      stepUpError.maxAgeSeconds,
      stepUpError.message,
    ]).toEqual(['insufficient_user_authentication', 401, '/v2/did/create-vc', 300, MESSAGE]);
    expect(StepUpRequiredError.code).toBe('insufficient_user_authentication');
    expect(seen).toHaveLength(1);
  });

  it('reauthenticates once, retries with the new bearer, and the client keeps the new JWT', async () => {
    const { fetch, seen } = service(['new']);
    const challenges: StepUpRequiredError[] = [];
    const itp = createClient({
      baseUrl: 'http://gw',
      fetch,
      token: 'old',
      reauthenticate: async (challenge) => (challenges.push(challenge), 'new'),
    });
    await expect(itp.did.createVc(vcParams)).resolves.toEqual(VC);
    await expect(itp.did.createVc(vcParams)).resolves.toEqual(VC);
    expect(challenges.map((c) => [c.maxAgeSeconds, c.operation])).toEqual([
      [300, '/v2/did/create-vc'],
    ]);
    expect(bearers(seen)).toEqual(['Bearer old', 'Bearer new', 'Bearer new']);
    // The retry is the same request: same body.
    expect(seen[1]?.body).toEqual(seen[0]?.body);
  });

  it("a call's own token is replaced for its retry only", async () => {
    const { fetch, seen } = service(['new']);
    const itp = createClient({
      baseUrl: 'http://gw',
      fetch,
      token: 'client',
      reauthenticate: async () => 'new',
    });
    await expect(itp.did.createVc(vcParams, { token: 'call' })).resolves.toEqual(VC);
    await itp.did.createVp({ holder: 'did:ethr:0x1', verifier: 'did:ethr:0x3', credentials: [] });
    expect(bearers(seen)).toEqual(['Bearer call', 'Bearer new', 'Bearer client']);
  });

  it('a second step-up answer is not retried again: it surfaces', async () => {
    const { fetch, seen } = service([]);
    let asked = 0;
    const itp = createClient({
      baseUrl: 'http://gw',
      fetch,
      token: 'old',
      reauthenticate: async () => `still-old-${++asked}`,
    });
    await expect(itp.did.createVc(vcParams)).rejects.toBeInstanceOf(StepUpRequiredError);
    expect(asked).toBe(1);
    expect(bearers(seen)).toEqual(['Bearer old', 'Bearer still-old-1']);
  });

  it("reauthenticate's failure is thrown as it is, and nothing is retried", async () => {
    const { fetch, seen } = service(['new']);
    const failure = new Error('no password: run itp login');
    const itp = createClient({
      baseUrl: 'http://gw',
      fetch,
      token: 'old',
      reauthenticate: async () => {
        throw failure;
      },
    });
    await expect(itp.did.createVc(vcParams)).rejects.toBe(failure);
    expect(seen).toHaveLength(1);
  });

  it('reauthenticate giving no token throws the StepUpRequiredError', async () => {
    const { fetch, seen } = service(['new']);
    const itp = createClient({
      baseUrl: 'http://gw',
      fetch,
      token: 'old',
      reauthenticate: async () => undefined,
    });
    await expect(itp.did.createVc(vcParams)).rejects.toBeInstanceOf(StepUpRequiredError);
    expect(seen).toHaveLength(1);
  });

  it('calls refused at the same time share one reauthentication', async () => {
    const { fetch, seen } = service(['new']);
    let asked = 0;
    const itp = createClient({
      baseUrl: 'http://gw',
      fetch,
      token: 'old',
      reauthenticate: async () => (asked++, 'new'),
    });
    const results = await Promise.all([1, 2, 3].map(() => itp.did.createVc(vcParams)));
    expect(results).toEqual([VC, VC, VC]);
    expect(asked).toBe(1);
    expect(bearers(seen).filter((b) => b === 'Bearer new')).toHaveLength(3);
  });

  it('is recognised by the body code alone (header not readable) and by the header alone', async () => {
    const { fetch } = fakeFetch((req) =>
      req.url.endsWith('/create-vc')
        ? { status: 401, body: stepUp.body }
        : { status: 401, body: 'Unauthorized', headers: { 'www-authenticate': CHALLENGE } },
    );
    const itp = createClient({ baseUrl: 'http://gw', fetch, token: 'old' });
    const noHeader = await itp.did.createVc(vcParams).catch((e: unknown) => e);
    expect(noHeader).toBeInstanceOf(StepUpRequiredError);
    expect((noHeader as StepUpRequiredError).maxAgeSeconds).toBeUndefined();
    const headerOnly = await itp.did.credentialOffer().catch((e: unknown) => e);
    expect(headerOnly).toBeInstanceOf(StepUpRequiredError);
    expect((headerOnly as StepUpRequiredError).maxAgeSeconds).toBe(300);
    expect((headerOnly as StepUpRequiredError).message).toBe(
      'A more recent authentication is required',
    );
  });

  it('an ended token (plain 401) and a request without a bearer are not reauthenticated', async () => {
    const { fetch, seen } = fakeFetch((req) =>
      req.url.endsWith('/create-vc')
        ? {
            status: 401,
            body: { error: { code: '401', message: 'This token was ended: log in again' } },
          }
        : stepUp,
    );
    let asked = 0;
    const reauthenticate = async () => (asked++, 'new');
    const itp = createClient({ baseUrl: 'http://gw', fetch, token: 'old', reauthenticate });
    const ended = await itp.did.createVc(vcParams).catch((e: unknown) => e);
    expect(ended).toBeInstanceOf(UnauthorizedError);
    expect(ended).not.toBeInstanceOf(StepUpRequiredError);
    const anonymous = createClient({ baseUrl: 'http://gw', fetch, reauthenticate });
    await expect(
      anonymous.did.createDid({ alias: 'a', address: '0x1', secretKey: 's' }),
    ).rejects.toBeInstanceOf(StepUpRequiredError);
    expect(asked).toBe(0);
    expect(seen).toHaveLength(2);
  });
});
