import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { openid4vpClient } from './openid4vp-client.js';
import { resolveRequest } from './resolve-request.js';
import { submitResponse } from './submit-response.js';
import { LoopbackVerifier, stubEthrResolver } from './testing/loopback-verifier.js';

describe('submitResponse', () => {
  const verifier = new LoopbackVerifier();
  beforeAll(() => verifier.start());
  afterAll(() => verifier.stop());

  it('posts vp_token and state form-encoded and hands back the answer, JSON or text', async () => {
    const client = await openid4vpClient({ resolver: stubEthrResolver });
    const { uri, state } = await verifier.request('s1');
    const resolved = await resolveRequest(client, uri);
    verifier.answer = { status: 400, body: '{"error":"access_denied"}' };
    await expect(submitResponse(client, resolved.request, { q: ['vp'] })).resolves.toEqual({
      status: 400,
      contentType: 'application/json',
      body: { error: 'access_denied' },
    });
    const form = verifier.responses.at(-1)!;
    expect(Object.fromEntries(form)).toEqual({ vp_token: '{"q":["vp"]}', state });
    verifier.answer = { status: 502, body: 'Bad Gateway' };
    await expect(submitResponse(client, resolved.request, { q: ['vp'] })).resolves.toMatchObject({
      status: 502,
      body: 'Bad Gateway',
    });
  });
});
