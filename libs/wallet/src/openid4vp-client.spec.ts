import { describe, expect, it } from '@jest/globals';
import { openid4vpClient } from './openid4vp-client.js';
import { resolveRequest } from './resolve-request.js';
import { LoopbackVerifier, stubEthrResolver } from './testing/loopback-verifier.js';

describe('openid4vpClient', () => {
  it('fetches through the given fetch, and refuses to sign or decrypt', async () => {
    const verifier = new LoopbackVerifier();
    await verifier.start();
    try {
      const { uri } = await verifier.request('c1');
      const fetched: string[] = [];
      const client = await openid4vpClient({
        resolver: stubEthrResolver,
        fetch: (input, init) => {
          fetched.push(String(input instanceof Request ? input.url : input));
          return fetch(input, init);
        },
      });
      await resolveRequest(client, uri);
      expect(fetched).toEqual([expect.stringMatching(/\/request\/c1$/)]);
    } finally {
      await verifier.stop();
    }
  });
});
