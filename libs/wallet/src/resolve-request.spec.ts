import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { openid4vpClient } from './openid4vp-client.js';
import { resolveRequest } from './resolve-request.js';
import { LoopbackVerifier, newEthrKey, stubEthrResolver } from './testing/loopback-verifier.js';

describe('resolveRequest', () => {
  const verifier = new LoopbackVerifier();
  const client = () => openid4vpClient({ resolver: stubEthrResolver });

  beforeAll(() => verifier.start());
  afterAll(() => verifier.stop());

  it('answers the verified request: client id, verifier DID, signer, nonce, state, response URI, query', async () => {
    const { uri, nonce, state } = await verifier.request('r1');
    const resolved = await resolveRequest(await client(), uri);
    expect(resolved).toMatchObject({
      clientId: verifier.clientId,
      verifierDid: verifier.key.did,
      signerKid: `${verifier.key.did}#controller`,
      nonce,
      state,
      responseUri: verifier.responseUri('r1'),
      dcqlQuery: { credentials: [{ id: 'itp_credential', format: 'jwt_vc_json' }] },
    });
  });

  it('refuses what is no request, a forged signature, another response mode, a query-less request', async () => {
    const refusal = (message: RegExp) =>
      expect.objectContaining({ code: 'invalid_request', message: expect.stringMatching(message) });
    await expect(resolveRequest(await client(), 'not a uri')).rejects.toEqual(
      refusal(/^not an OpenID4VP request/),
    );
    const forged = await verifier.request('r2', newEthrKey().privateKey);
    await expect(resolveRequest(await client(), forged.uri)).rejects.toEqual(
      refusal(/^the request does not resolve or verify: .*verification of jwt/),
    );
    const jwt = await verifier.request('r3', undefined, { response_mode: 'direct_post.jwt' });
    await expect(resolveRequest(await client(), jwt.uri)).rejects.toEqual(
      refusal(/response_mode direct_post.jwt is not supported/),
    );
    const noQuery = await verifier.request('r4', undefined, {
      dcql_query: undefined,
      scope: 'openid',
    });
    await expect(resolveRequest(await client(), noQuery.uri)).rejects.toEqual(
      refusal(/no DCQL credential query/),
    );
  });

  it('refuses an http request URI off loopback unless insecure URLs are allowed', async () => {
    const uri = `openid4vp://?${new URLSearchParams({
      client_id: verifier.clientId,
      request_uri: 'http://verifier.example/request/1',
    })}`;
    await expect(resolveRequest(await client(), uri)).rejects.toThrow(
      "the request's request_uri must be https (or http on loopback): http://verifier.example/request/1",
    );
    // Allowed, it gets as far as fetching (nothing answers there).
    await expect(resolveRequest(await client(), uri, { allowInsecureUrls: true })).rejects.toThrow(
      /does not resolve or verify/,
    );
  });
});
