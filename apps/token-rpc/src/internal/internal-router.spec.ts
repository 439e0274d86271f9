import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { computeAddress, recoverAddress } from 'ethers';
import type { RunningAnvil } from '@itp/chain';
import { createTestDatabase, uniquePrefix, type TestDatabase } from '@itp/testing';
import {
  TEST_INTERNAL_TOKEN,
  createAddress,
  sha256,
  startTestChain,
  startTokenApp,
  type Json,
  type TestWallet,
  type TokenTestApp,
} from '../testing/token-test-kit.js';

/** The internal wallet API did-service uses (REST, bearer INTERNAL_API_TOKEN). */
describe('internal wallet API', () => {
  let chain: RunningAnvil;
  let db: TestDatabase;
  let app: TokenTestApp;
  let wallet: TestWallet;

  async function post(path: string, body: unknown, token: string | null = TEST_INTERNAL_TOKEN) {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (token !== null) headers.authorization = `Bearer ${token}`;
    const res = await fetch(`${app.url}/internal/v1/wallet${path}`, {
      method: 'POST',
      headers,
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Json };
  }

  beforeAll(async () => {
    chain = await startTestChain();
    db = await createTestDatabase();
    app = await startTokenApp({
      chainUrl: chain.url,
      databaseUrl: db.url,
      redisPrefix: uniquePrefix('token'),
    });
    wallet = await createAddress(app.url);
  });
  afterAll(async () => {
    await app?.close();
    await db?.drop();
    await chain?.stop();
  });

  describe('POST /verify-secret', () => {
    it('answers the uncompressed public key of a matching address + secretKey', async () => {
      const answer = await post('/verify-secret', {
        address: wallet.address.toLowerCase(),
        secretKey: wallet.secretKey,
      });
      expect(answer.status).toBe(200);
      expect(answer.body.address).toBe(wallet.address);
      expect(answer.body.publicKeyHex).toMatch(/^0x04[0-9a-f]{128}$/);
      expect(computeAddress(answer.body.publicKeyHex)).toBe(wallet.address);
    });

    it('401 with the same answer for a wrong secret and an unknown address', async () => {
      const wrong = await post('/verify-secret', {
        address: wallet.address,
        secretKey: 'f'.repeat(64),
      });
      const unknown = await post('/verify-secret', {
        address: '0x000000000000000000000000000000000000dEaD',
        secretKey: wallet.secretKey,
      });
      expect(wrong).toEqual({
        status: 401,
        body: {
          error: { code: '401', message: 'address and secretKey do not match a wallet address' },
        },
      });
      expect(unknown).toEqual(wrong);
    });

    it('400 for a malformed body, never echoing the secret', async () => {
      const missing = await post('/verify-secret', { address: wallet.address });
      expect(missing.status).toBe(400);
      expect(missing.body.error.code).toBe('400');
      const badAddress = await post('/verify-secret', {
        address: 'nope',
        secretKey: 'my-secret-value',
      });
      expect(badAddress.status).toBe(400);
      expect(JSON.stringify(badAddress.body)).not.toContain('my-secret-value');
      const notJson = await post('/verify-secret', '{not json');
      expect(notJson).toEqual({
        status: 400,
        body: { error: { code: '400', message: 'Malformed JSON body' } },
      });
    });

    it('401 without the internal token or with a wrong one', async () => {
      const body = { address: wallet.address, secretKey: wallet.secretKey };
      expect((await post('/verify-secret', body, null)).status).toBe(401);
      expect((await post('/verify-secret', body, 'wrong-token')).status).toBe(401);
    });
  });

  describe('POST /sign-digest', () => {
    it('signs a raw digest with the address key (r ‖ s ‖ v, no prefix)', async () => {
      const digest = `0x${sha256('jwt header.payload')}`;
      const answer = await post('/sign-digest', { address: wallet.address, digest });
      expect(answer.status).toBe(200);
      const { signature, r, s, recoveryParam } = answer.body;
      expect(signature).toMatch(/^0x[0-9a-f]{130}$/);
      expect(signature).toBe(`${r}${s.slice(2)}${(27 + recoveryParam).toString(16)}`);
      expect(recoverAddress(digest, signature)).toBe(wallet.address);
    });

    it('404 for an unknown address, 400 for a malformed digest, 401 without the token', async () => {
      const digest = `0x${sha256('x')}`;
      const unknown = await post('/sign-digest', {
        address: '0x000000000000000000000000000000000000dEaD',
        digest,
      });
      expect(unknown.status).toBe(404);
      expect(unknown.body.error.code).toBe('404');
      expect(
        (await post('/sign-digest', { address: wallet.address, digest: '0x1234' })).status,
      ).toBe(400);
      expect((await post('/sign-digest', { address: wallet.address, digest }, null)).status).toBe(
        401,
      );
    });
  });
});
