import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { DidServiceParts } from './app.js';
import { startDidHarness, type DidHarness } from './testing/did-harness.js';

// Rotating an internal token without downtime (docs/operations.md). did-service's internal API
// accepts auth-service's token (INTERNAL_TOKEN_AUTH_TO_DID) and every INTERNAL_API_ACCEPTED_TOKENS
// entry, never the tokens it sends itself. The harness' stand-in of token-rpc accepts exactly the
// harness' INTERNAL_TOKEN_DID_TO_TOKEN_RPC, so a create-did that succeeds proves what it sends.
const OLD = randomBytes(32).toString('base64url');
const NEW = randomBytes(32).toString('base64url');
const SENT_TO_TOKEN_RPC = randomBytes(32).toString('base64url');
const SENT_TO_AUTH = randomBytes(32).toString('base64url');

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

describe('internal token rotation', () => {
  let h: DidHarness;
  beforeAll(async () => {
    // Step 2 of the rotation: auth-service sends NEW, OLD (still sent by its pods not yet rolled)
    // is accepted.
    h = await startDidHarness({
      INTERNAL_TOKEN_AUTH_TO_DID: NEW,
      INTERNAL_API_ACCEPTED_TOKENS: OLD,
      INTERNAL_TOKEN_DID_TO_TOKEN_RPC: SENT_TO_TOKEN_RPC,
      INTERNAL_TOKEN_DID_TO_AUTH: SENT_TO_AUTH,
    });
  });
  afterAll(() => h.close());

  it("accepts auth-service's token and the accepted ones, and nothing else", async () => {
    expect(await internalCall(h.internalUrl, NEW)).toBe(400);
    expect(await internalCall(h.internalUrl, OLD)).toBe(400);
    expect(await internalCall(h.internalUrl, randomBytes(32).toString('base64url'))).toBe(401);
    expect(await internalCall(h.internalUrl, `${NEW},${OLD}`)).toBe(401);
    expect(await internalCall(h.internalUrl, undefined)).toBe(401);
    // The tokens it sends to token-rpc and auth-service open nothing here.
    expect(await internalCall(h.internalUrl, SENT_TO_TOKEN_RPC)).toBe(401);
    expect(await internalCall(h.internalUrl, SENT_TO_AUTH)).toBe(401);
  });

  it('sends INTERNAL_TOKEN_DID_TO_TOKEN_RPC to token-rpc', async () => {
    const account = h.wallet.createAddress();
    const res = await h.post('/v2/did/create-did', {
      alias: 'rotation',
      address: account.address,
      secretKey: account.secretKey,
    });
    expect(res.status).toBe(200);
    expect(res.body.did).toMatch(/^did:ethr:/);
  });

  it('step 1 (NEW accepted, OLD current) lets both in; a token token-rpc does not know is refused there', async () => {
    const app = await h.buildWith({
      INTERNAL_TOKEN_AUTH_TO_DID: OLD,
      INTERNAL_API_ACCEPTED_TOKENS: NEW,
      INTERNAL_TOKEN_DID_TO_TOKEN_RPC: OLD,
    });
    try {
      const { url, internalUrl = '' } = await app.service.listen();
      expect(await internalCall(internalUrl, OLD)).toBe(400);
      expect(await internalCall(internalUrl, NEW)).toBe(400);
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
      // token-rpc's stand-in only knows SENT_TO_TOKEN_RPC: the OLD this instance sends is refused.
      expect(res.status).toBe(401);
      await res.text();
    } finally {
      await app.service.close();
    }
  });

  it('step 3 (OLD dropped) refuses OLD with 401 and keeps NEW working', async () => {
    let app: DidServiceParts | undefined;
    try {
      app = await h.buildWith({ INTERNAL_API_ACCEPTED_TOKENS: '' });
      const { internalUrl = '' } = await app.service.listen();
      expect(await internalCall(internalUrl, OLD)).toBe(401);
      expect(await internalCall(internalUrl, NEW)).toBe(400);
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
