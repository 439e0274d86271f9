import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { SpawnedApp } from '@itp/testing';
import { startDidHarness, type DidHarness } from '../testing/did-harness.js';
import { spawnGateway } from '../testing/spawn-gateway.js';

// Answers are asserted field by field.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

describe('the DID API through the gateway (gateway process)', () => {
  let h: DidHarness;
  let gateway: SpawnedApp;
  beforeAll(async () => {
    h = await startDidHarness();
    gateway = await spawnGateway({ didUrl: h.url });
  }, 60_000);
  afterAll(async () => {
    await gateway?.stop();
    await h?.close();
  });

  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${gateway.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Json };
  };

  it('runs the identity flow: create-did → create-vc → verify-vc → create-vp → verify-vp', async () => {
    const issuers = (await (await fetch(`${gateway.url}/v2/did/issuers`)).json()) as Json;
    const verifiers = (await (await fetch(`${gateway.url}/v2/did/verifiers`)).json()) as Json;
    expect(issuers).toEqual((await h.get('/v2/did/issuers')).body);
    const account = h.wallet.createAddress();
    const auth = { authorization: `Bearer ${await h.auth.tokenFor('gina')}` };
    const did = await post(
      '/v2/did/create-did',
      { alias: 'gina', address: account.address, secretKey: account.secretKey },
      auth,
    );
    expect(did.status).toBe(200);
    const vc = await post(
      '/v2/did/create-vc',
      { holder: did.body.did, issuer: issuers[0].did, userInfo: { name: 'Gina' } },
      auth,
    );
    expect(vc.status).toBe(200);
    expect((await post('/v2/did/verify-vc', vc.body)).body.verified).toBe(true);
    const vp = await post(
      '/v2/did/create-vp',
      { holder: did.body.did, verifier: verifiers[0].did, credentials: [vc.body] },
      auth,
    );
    expect(vp.status).toBe(200);
    const verified = await post('/v2/did/verify-vp', vp.body);
    expect(verified.status).toBe(200);
    expect(verified.body.verified).toBe(true);
    const refused = await post('/v2/did/create-vc', {
      holder: did.body.did,
      issuer: issuers[0].did,
    });
    expect(refused).toEqual({
      status: 401,
      body: { error: { code: '401', message: expect.any(String) } },
    });
  });

  it('does not route the internal API', async () => {
    const res = await post(
      '/internal/v1/verify-login-vp',
      { vp: {} },
      { authorization: `Bearer ${h.internalToken}` },
    );
    expect(res.status).toBe(404);
    // Nor does the service's public port, which is what the gateway forwards to.
    expect((await h.post('/internal/v1/verify-login-vp', { vp: {} })).status).toBe(404);
  });
});
