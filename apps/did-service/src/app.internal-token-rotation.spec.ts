import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { DidApp } from './app.js';
import { startDidHarness, type DidHarness } from './testing/did-harness.js';

// Rotating INTERNAL_API_TOKEN without downtime (docs/operations.md): the service sends only
// INTERNAL_API_TOKEN and accepts it and every INTERNAL_API_ACCEPTED_TOKENS entry. The harness'
// stand-ins of token-rpc and auth-service accept exactly the harness' INTERNAL_API_TOKEN, so a
// create-did that succeeds proves which token did-service sends.
const OLD = randomBytes(32).toString('base64url');
const NEW = randomBytes(32).toString('base64url');

async function internalCall(url: string, token: string | undefined): Promise<number> {
  const res = await fetch(`${url}/internal/v1/verify-login-vp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
    body: '{}',
  });
  await res.text();
  // 400: let in, and refused for the missing VP; 401: the token was refused.
  return res.status;
}

describe('INTERNAL_API_TOKEN rotation', () => {
  let h: DidHarness;
  beforeAll(async () => {
    // Step 2 of the rotation: NEW is sent, OLD (still sent by pods not yet rolled) is accepted.
    h = await startDidHarness({ INTERNAL_API_TOKEN: NEW, INTERNAL_API_ACCEPTED_TOKENS: OLD });
  });
  afterAll(() => h.close());

  it('accepts the sent token and the accepted ones, and nothing else', async () => {
    expect(await internalCall(h.url, NEW)).toBe(400);
    expect(await internalCall(h.url, OLD)).toBe(400);
    expect(await internalCall(h.url, randomBytes(32).toString('base64url'))).toBe(401);
    expect(await internalCall(h.url, `${NEW},${OLD}`)).toBe(401);
    expect(await internalCall(h.url, undefined)).toBe(401);
  });

  it('sends only INTERNAL_API_TOKEN to the other services', async () => {
    const account = h.wallet.createAddress();
    const res = await h.post('/v2/did/create-did', {
      alias: 'rotation',
      address: account.address,
      secretKey: account.secretKey,
    });
    expect(res.status).toBe(200);
    expect(res.body.did).toMatch(/^did:ethr:/);
  });

  it('step 1 (NEW accepted, OLD sent) lets both in; the stand-ins refuse the OLD it sends', async () => {
    const app = await h.buildWith({ INTERNAL_API_TOKEN: OLD, INTERNAL_API_ACCEPTED_TOKENS: NEW });
    try {
      const { url } = await app.service.listen();
      expect(await internalCall(url, OLD)).toBe(400);
      expect(await internalCall(url, NEW)).toBe(400);
      const account = h.wallet.createAddress();
      const res = await fetch(`${url}/v2/did/create-did`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          alias: 'rotation-old',
          address: account.address,
          secretKey: account.secretKey,
        }),
      });
      // token-rpc's stand-in only knows NEW: the OLD token this instance sends is refused there.
      expect(res.status).toBe(401);
      await res.text();
    } finally {
      await app.service.close();
    }
  });

  it('step 3 (OLD dropped) refuses OLD with 401 and keeps NEW working', async () => {
    let app: DidApp | undefined;
    try {
      app = await h.buildWith({ INTERNAL_API_ACCEPTED_TOKENS: '' });
      const { url } = await app.service.listen();
      expect(await internalCall(url, OLD)).toBe(401);
      expect(await internalCall(url, NEW)).toBe(400);
    } finally {
      await app?.service.close();
    }
  });

  it('refuses to start with a weak accepted token, naming the entry, never the value', async () => {
    const err = await h
      .buildWith({ INTERNAL_API_ACCEPTED_TOKENS: `${OLD},compose-demo-internal-token-change-me` })
      .catch((e: unknown) => e as Error);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(/INTERNAL_API_ACCEPTED_TOKENS \(entry 2\): .*published/);
    expect((err as Error).message).not.toContain('compose-demo');
    expect((err as Error).message).not.toContain(OLD);
  });
});
