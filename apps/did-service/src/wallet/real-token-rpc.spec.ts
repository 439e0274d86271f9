import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  createTestDatabase,
  spawnApp,
  testChainUrl,
  testRedisUrl,
  uniquePrefix,
  type SpawnedApp,
  type TestDatabase,
} from '@itp/testing';
import { startDidHarness, type DidHarness } from '../testing/did-harness.js';

/** did-service against the real token-rpc process: holder keys stay in its wallet. */
describe('did-service with the real token-rpc wallet (token-rpc process)', () => {
  const internalApiToken = randomBytes(32).toString('base64url');
  let tokenDb: TestDatabase;
  let tokenRpc: SpawnedApp;
  let h: DidHarness;

  beforeAll(async () => {
    tokenDb = await createTestDatabase();
    tokenRpc = await spawnApp(
      'token-rpc',
      {
        APP_ENV: 'test',
        ETH_RPC_URL: testChainUrl(),
        DATABASE_URL: tokenDb.url,
        REDIS_URL: testRedisUrl(),
        REDIS_KEY_PREFIX: uniquePrefix('token'),
        WALLET_MASTER_KEY: `t1:${randomBytes(32).toString('base64')}`,
        INTERNAL_TOKEN_DID_TO_TOKEN_RPC: internalApiToken,
      },
      { waitFor: 'live', run: 'bundle' },
    );
    h = await startDidHarness({
      INTERNAL_TOKEN_DID_TO_TOKEN_RPC: internalApiToken,
      TOKEN_RPC_INTERNAL_URL: tokenRpc.internalUrl,
    });
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    await tokenRpc?.stop();
    await tokenDb?.drop();
  });

  async function createAddress(): Promise<{ address: string; secretKey: string }> {
    const res = await fetch(`${tokenRpc.url}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'createAddress', params: {} }),
    });
    const answer = (await res.json()) as {
      result: { resultData: { address: string; secretKey: string } };
    };
    return answer.result.resultData;
  }

  it('creates a DID from a wallet address and signs VPs through the wallet', async () => {
    const { address, secretKey } = await createAddress();
    const auth = { authorization: `Bearer ${await h.auth.tokenFor('hana')}` };
    const wrong = await h.post('/v2/did/create-did', {
      alias: 'hana',
      address,
      secretKey: `${secretKey}x`,
    });
    expect(wrong.status).toBe(401);
    const did = await h.post('/v2/did/create-did', { alias: 'hana', address, secretKey }, auth);
    expect(did.status).toBe(200);
    expect(did.body).toMatchObject({ did: `did:ethr:${address}`, controllerKeyId: address });
    const issuer = (await h.get('/v2/did/issuers')).body[0].did;
    const verifier = (await h.get('/v2/did/verifiers')).body[0].did;
    const vc = await h.post(
      '/v2/did/create-vc',
      { holder: did.body.did, issuer, userInfo: { name: 'Hana' } },
      auth,
    );
    expect(vc.status).toBe(200);
    const vp = await h.post(
      '/v2/did/create-vp',
      { holder: did.body.did, verifier, credentials: [vc.body] },
      auth,
    );
    expect(vp.status).toBe(200);
    expect((await h.post('/v2/did/verify-vp', vp.body)).body.verified).toBe(true);
    const login = await h.postInternal('/internal/v1/verify-login-vp', { vp: vp.body });
    expect(login.status).toBe(200);
    expect(login.body.userId).toBe('hana');
  });

  it("token-rpc's signer answers only on its internal port, and only to did-service's token", async () => {
    const { address } = await createAddress();
    const signJws = (base: string, token: string) =>
      fetch(`${base}/internal/v1/wallet/sign-jws`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ address, signingInput: 'e30.e30' }),
      }).then(async (res) => (await res.text(), res.status));
    // The public port (what the gateway and every client reach) has no internal route at all.
    expect(await signJws(tokenRpc.url, internalApiToken)).toBe(404);
    // auth-service's token (the one did-service accepts from it) is not the signer's.
    expect(await signJws(tokenRpc.internalUrl, h.internalToken)).toBe(401);
    // did-service's token is let in (and refused for this unregistered address, not for the token).
    expect(await signJws(tokenRpc.internalUrl, internalApiToken)).not.toBe(401);
  });
});
