import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { verifyJWS } from 'did-jwt';
import { Transaction, computeAddress, recoverAddress } from 'ethers';
import type { RunningAnvil } from '@itp/dev-chain';
import { createTestDatabase, uniquePrefix, type TestDatabase } from '@itp/testing';
import {
  TEST_INTERNAL_TOKEN,
  createAddress,
  sha256,
  startFundedTestChain,
  startTokenApp,
  type Json,
  type TestWallet,
  type TokenTestApp,
} from '../testing/token-test-kit.js';

/** 0x-hex SHA-256 of the UTF-8 JWS signing input: what ES256K signs. */
function sha256Digest(signingInput: string): string {
  return `0x${createHash('sha256').update(signingInput, 'utf8').digest('hex')}`;
}

/** The internal wallet API did-service uses (REST, bearer INTERNAL_TOKEN_DID_TO_TOKEN_RPC). */
describe('internal wallet API', () => {
  let chain: RunningAnvil;
  let db: TestDatabase;
  let app: TokenTestApp;
  let wallet: TestWallet;

  async function post(path: string, body: unknown, token: string | null = TEST_INTERNAL_TOKEN) {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (token !== null) headers.authorization = `Bearer ${token}`;
    const res = await fetch(`${app.internalUrl}/internal/v1/wallet${path}`, {
      method: 'POST',
      headers,
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Json };
  }

  beforeAll(async () => {
    chain = await startFundedTestChain();
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

  it('is served on the internal listener only: the public port has no /internal route', async () => {
    const onPublic = await fetch(`${app.url}/internal/v1/wallet/sign-jws`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${TEST_INTERNAL_TOKEN}`,
      },
      body: JSON.stringify({ address: wallet.address, signingInput: 'a.b' }),
    });
    expect(onPublic.status).toBe(404);
    expect(app.internalUrl).not.toBe(app.url);
  });

  describe('POST /register-did', () => {
    it('answers the uncompressed public key of a matching address + secretKey and the same 401 for a wrong secret or an unknown address', async () => {
      const other = await createAddress(app.url);
      const answer = await post('/register-did', {
        address: other.address.toLowerCase(),
        secretKey: other.secretKey,
      });
      expect(answer.status).toBe(200);
      expect(answer.body.address).toBe(other.address);
      expect(answer.body.publicKeyHex).toMatch(/^0x04[0-9a-f]{128}$/);
      expect(computeAddress(answer.body.publicKeyHex)).toBe(other.address);
      // Idempotent.
      expect(
        await post('/register-did', { address: other.address, secretKey: other.secretKey }),
      ).toEqual(answer);
      const wrong = await post('/register-did', {
        address: wallet.address,
        secretKey: 'f'.repeat(64),
      });
      const unknown = await post('/register-did', {
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
      expect((await post('/register-did', { address: wallet.address }, null)).status).toBe(401);
    });

    it('400 for a malformed body, never echoing the secret', async () => {
      const missing = await post('/register-did', { address: wallet.address });
      expect(missing.status).toBe(400);
      expect(missing.body.error.code).toBe('400');
      const badAddress = await post('/register-did', {
        address: 'nope',
        secretKey: 'my-secret-value',
      });
      expect(badAddress.status).toBe(400);
      expect(JSON.stringify(badAddress.body)).not.toContain('my-secret-value');
      const notJson = await post('/register-did', '{not json');
      expect(notJson).toEqual({
        status: 400,
        body: { error: { code: '400', message: 'Malformed JSON body' } },
      });
    });

    it('401 without the internal token or with a wrong one', async () => {
      const body = { address: wallet.address, secretKey: wallet.secretKey };
      expect((await post('/register-did', body, null)).status).toBe(401);
      expect((await post('/register-did', body, 'wrong-token')).status).toBe(401);
    });

    it('has no verify-secret route any more (404)', async () => {
      const body = { address: wallet.address, secretKey: wallet.secretKey };
      expect((await post('/verify-secret', body)).status).toBe(404);
    });
  });

  describe('POST /sign-jws', () => {
    const b64url = (value: unknown) =>
      Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
    const jws = (header: unknown, payload: unknown) => `${b64url(header)}.${b64url(payload)}`;
    const didOf = (address: string) => `did:ethr:${address}`;
    let registered: TestWallet;

    beforeAll(async () => {
      registered = await createAddress(app.url);
      const answer = await post('/register-did', {
        address: registered.address,
        secretKey: registered.secretKey,
      });
      expect(answer.status).toBe(200);
    });

    it('signs an ES256K JWS issued by the DID of a registered address; it verifies', async () => {
      const signingInput = jws(
        { alg: 'ES256K', typ: 'JWT' },
        { iss: didOf(registered.address.toLowerCase()), sub: 'user-1', vc: { type: ['X'] } },
      );
      const answer = await post('/sign-jws', { address: registered.address, signingInput });
      expect(answer.status).toBe(200);
      const { signature, r, s, recoveryParam } = answer.body;
      const bytes = Buffer.from(signature, 'base64url');
      expect(bytes).toHaveLength(64);
      expect(`0x${bytes.subarray(0, 32).toString('hex')}`).toBe(r);
      expect(`0x${bytes.subarray(32).toString('hex')}`).toBe(s);
      const digest = sha256Digest(signingInput);
      expect(recoverAddress(digest, { r, s, v: 27 + recoveryParam })).toBe(registered.address);
      // did-jwt verifies the JWS against the DID's key (as Veramo does for a VC / VP).
      const did = didOf(registered.address);
      const verificationMethods = [
        {
          id: `${did}#controller`,
          type: 'EcdsaSecp256k1RecoveryMethod2020',
          controller: did,
          blockchainAccountId: `eip155:31337:${registered.address}`,
        },
      ];
      expect(verifyJWS(`${signingInput}.${signature}`, verificationMethods).id).toBe(
        `${did}#controller`,
      );
      const tampered = `${signingInput.slice(0, -2)}AA.${signature}`;
      expect(() => verifyJWS(tampered, verificationMethods)).toThrow();
    });

    it('ES256K-R: r ‖ s ‖ recovery id, recovering the address', async () => {
      const signingInput = jws(
        { alg: 'ES256K-R', typ: 'JWT' },
        { iss: didOf(registered.address), nonce: 'n' },
      );
      const answer = await post('/sign-jws', { address: registered.address, signingInput });
      expect(answer.status).toBe(200);
      const bytes = Buffer.from(answer.body.signature, 'base64url');
      expect(bytes).toHaveLength(65);
      expect(bytes[64]).toBe(answer.body.recoveryParam);
      expect(
        recoverAddress(sha256Digest(signingInput), {
          r: answer.body.r,
          s: answer.body.s,
          v: 27 + answer.body.recoveryParam,
        }),
      ).toBe(registered.address);
    });

    it('refuses (400) a raw transaction hash or arbitrary data: nothing but JWS is signed', async () => {
      // The attack sign-digest allowed: sign the hash of a transfer of the address's funds.
      const tx = Transaction.from({
        type: 2,
        chainId: 31337,
        nonce: 0,
        to: '0x000000000000000000000000000000000000dEaD',
        value: 10n ** 18n,
        gasLimit: 21000,
        maxFeePerGas: 10n ** 9n,
        maxPriorityFeePerGas: 1n,
      });
      for (const body of [
        { address: registered.address, signingInput: tx.unsignedHash },
        { address: registered.address, signingInput: tx.unsignedHash.slice(2) },
        { address: registered.address, digest: tx.unsignedHash },
        { address: registered.address, signingInput: `${b64url('hello')}.${b64url('world')}` },
        { address: registered.address, signingInput: `${b64url('[1]')}.${b64url('{}')}` },
        {
          address: registered.address,
          signingInput: `${b64url({ alg: 'ES256K' })}.${b64url(tx.unsignedSerialized)}`,
        },
      ]) {
        const answer = await post('/sign-jws', body);
        expect({ body, status: answer.status }).toEqual({ body, status: 400 });
        expect(answer.body.error.code).toBe('400');
        expect(answer.body).not.toHaveProperty('signature');
      }
    });

    it('refuses (400) a JWS issued by another DID, and HS256 / none / b64:false', async () => {
      const victim = wallet.address;
      const cases = [
        jws({ alg: 'ES256K' }, { iss: didOf(victim) }),
        jws({ alg: 'ES256K' }, { iss: `did:ethr:0x7a69:${victim}` }),
        jws({ alg: 'ES256K' }, { iss: registered.address }),
        jws({ alg: 'ES256K' }, { sub: didOf(registered.address) }),
        jws({ alg: 'HS256' }, { iss: didOf(registered.address) }),
        jws({ alg: 'none' }, { iss: didOf(registered.address) }),
        jws({ typ: 'JWT' }, { iss: didOf(registered.address) }),
        jws({ alg: 'ES256K', b64: false, crit: ['b64'] }, { iss: didOf(registered.address) }),
      ];
      for (const signingInput of cases) {
        const answer = await post('/sign-jws', { address: registered.address, signingInput });
        expect({ signingInput, status: answer.status }).toEqual({ signingInput, status: 400 });
      }
      const other = await post('/sign-jws', {
        address: registered.address,
        signingInput: cases[0],
      });
      expect(other.body.error.message).toContain(`did:ethr:${registered.address}`);
      // The address's own DID with a network segment (did-service's DID_NETWORK, ADR 0015) is signed.
      const segment = await post('/sign-jws', {
        address: registered.address,
        signingInput: jws({ alg: 'ES256K' }, { iss: `did:ethr:0x7a69:${registered.address}` }),
      });
      expect(segment.status).toBe(200);
    });

    it('refuses (403) an address never registered for a DID, 404 an unknown one', async () => {
      // `wallet` exists and its secretKey is known, but it never went through register-did.
      const unregistered = await post('/sign-jws', {
        address: wallet.address,
        signingInput: jws({ alg: 'ES256K' }, { iss: didOf(wallet.address) }),
      });
      expect(unregistered.status).toBe(403);
      expect(unregistered.body.error).toEqual({
        code: '403',
        message: `${wallet.address} is not registered for a DID (register-did): nothing is signed for it`,
      });
      const unknownAddress = '0x000000000000000000000000000000000000dEaD';
      const unknown = await post('/sign-jws', {
        address: unknownAddress,
        signingInput: jws({ alg: 'ES256K' }, { iss: didOf(unknownAddress) }),
      });
      expect(unknown.status).toBe(404);
      expect(unknown.body.error.code).toBe('404');
    });

    it('401 without the internal token', async () => {
      const signingInput = jws({ alg: 'ES256K' }, { iss: didOf(registered.address) });
      expect(
        (await post('/sign-jws', { address: registered.address, signingInput }, null)).status,
      ).toBe(401);
    });
  });

  it('POST /sign-digest is gone (404), with or without the token', async () => {
    const digest = `0x${sha256('x')}`;
    expect((await post('/sign-digest', { address: wallet.address, digest })).status).toBe(404);
    expect((await post('/sign-digest', { address: wallet.address, digest }, null)).status).not.toBe(
      200,
    );
  });
});
