/**
 * Sign-In with Ethereum through the SDK with a fake fetch: the message posted is the EIP-4361
 * message for the nonce answer, signed by the signer's address, with an ethers Wallet and with a
 * viem LocalAccount alike; linking needs a bearer JWT; refusals get their classes.
 */
import { describe, expect, it } from '@jest/globals';
import { Wallet } from 'ethers';
import { verifyMessage } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { parseSiweMessage } from 'viem/siwe';
import { createClient } from '../client.js';
import {
  AddressNotLinkedError,
  AddressTakenError,
  BadRequestError,
  SiweRefusedError,
  UnauthorizedError,
} from '../errors/error-classes.js';
import { fakeFetch, type SeenRequest } from '../testing/fake-fetch.js';
import type { SiweNonceResponse, SiweSigner } from '../types.js';

const NONCE: SiweNonceResponse = {
  nonce: 'q8mT3vN0aZ7cK2xP5rL9wE4yB1uH6jGd',
  domain: 'itp.example:8443',
  uri: 'https://itp.example:8443',
  chainId: 31337,
};

const loginResult = {
  token: 'jwt.jwt.jwt',
  userId: 'demo',
  name: 'Demo User',
  telNo: null,
  email: 'demo@example.com',
};

/** The gateway's side: a nonce, then the login, link or unlink answer (or `refusal`). */
function gateway(refusal?: { status: number; message: string }) {
  return fakeFetch((req: SeenRequest) => {
    const path = new URL(req.url).pathname;
    if (path === '/v2/auth/siwe/nonce') return { body: NONCE };
    if (refusal) {
      const { status, message } = refusal;
      return { status, body: { error: { code: String(status), message } } };
    }
    if (path === '/v2/auth/auth-user-with-siwe') return { body: loginResult };
    const { address } = (req.body ?? {}) as { address?: string };
    return { body: { address: address ?? 'from-message', userId: 'demo' } };
  });
}

/** A viem account and its address. */
function viemSigner(): { signer: SiweSigner; address: string } {
  const account = privateKeyToAccount(generatePrivateKey());
  return { signer: account, address: account.address };
}

/** Both signer kinds the SDK takes, each with the address it signs for. */
function signers(): Array<{ kind: string; signer: SiweSigner; address: string }> {
  const ethers = Wallet.createRandom();
  const viem = privateKeyToAccount(generatePrivateKey());
  return [
    { kind: 'ethers Wallet', signer: ethers, address: ethers.address },
    { kind: 'viem LocalAccount', signer: viem, address: viem.address },
  ];
}

/** The message and signature a request posted, checked as the service would check them. */
async function postedMessage(request: SeenRequest | undefined, address: string) {
  const { message, signature } = request?.body as { message: string; signature: `0x${string}` };
  const parsed = parseSiweMessage(message);
  const verified = await verifyMessage({ address: address as `0x${string}`, message, signature });
  return { message, parsed, verified };
}

describe('auth.loginWithSiwe', () => {
  it.each(signers())(
    'posts the message for the nonce answer signed by the $kind, and returns the login result',
    async ({ signer, address }) => {
      const { fetch, seen } = gateway();
      const before = Date.now();
      const itp = createClient({ baseUrl: 'http://gw', fetch });
      await expect(itp.auth.loginWithSiwe(signer)).resolves.toEqual(loginResult);
      expect(seen.map((r) => [r.method, r.url])).toEqual([
        ['POST', 'http://gw/v2/auth/siwe/nonce'],
        ['POST', 'http://gw/v2/auth/auth-user-with-siwe'],
      ]);
      expect(seen[1]?.headers['authorization']).toBeUndefined();
      const { parsed, verified } = await postedMessage(seen[1], address);
      expect(parsed).toMatchObject({
        domain: NONCE.domain,
        uri: NONCE.uri,
        chainId: NONCE.chainId,
        nonce: NONCE.nonce,
        address,
        version: '1',
        statement: `Sign in to ${NONCE.domain}`,
      });
      expect(verified).toBe(true);
      const issuedAt = parsed.issuedAt?.getTime() ?? 0;
      expect(issuedAt).toBeGreaterThanOrEqual(before - 1000);
      expect(issuedAt).toBeLessThanOrEqual(Date.now());
      expect((parsed.expirationTime?.getTime() ?? 0) - issuedAt).toBe(5 * 60_000);
    },
  );

  it('takes a statement and a lifetime of the caller', async () => {
    const { fetch, seen } = gateway();
    const { signer, address } = viemSigner();
    await createClient({ baseUrl: 'http://gw', fetch }).auth.loginWithSiwe(signer, {
      statement: 'Welcome back',
      expiresInMs: 60_000,
    });
    const { parsed } = await postedMessage(seen[1], address);
    expect(parsed.statement).toBe('Welcome back');
    expect((parsed.expirationTime?.getTime() ?? 0) - (parsed.issuedAt?.getTime() ?? 0)).toBe(
      60_000,
    );
  });

  it('throws SiweRefusedError (an UnauthorizedError) for 401, BadRequestError for 400', async () => {
    const { signer } = viemSigner();
    const refused = await createClient({
      baseUrl: 'http://gw',
      fetch: gateway({ status: 401, message: 'no user for this address' }).fetch,
    })
      .auth.loginWithSiwe(signer)
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SiweRefusedError);
    expect(refused).toBeInstanceOf(UnauthorizedError);
    expect(refused).toMatchObject({
      code: '401',
      message: 'no user for this address',
      operation: '/v2/auth/auth-user-with-siwe',
    });
    const malformed = await createClient({
      baseUrl: 'http://gw',
      fetch: gateway({ status: 400, message: 'not an EIP-4361 message' }).fetch,
    })
      .auth.loginWithSiwe(signer)
      .catch((e: unknown) => e);
    expect(malformed).toBeInstanceOf(BadRequestError);
  });

  it('refuses what is no signer before asking for a nonce', async () => {
    const { fetch, seen } = gateway();
    const notASigner = { address: '0x1' } as unknown as SiweSigner;
    await expect(
      createClient({ baseUrl: 'http://gw', fetch }).auth.loginWithSiwe(notASigner),
    ).rejects.toThrow(TypeError);
    expect(seen).toEqual([]);
  });

  it('posts a message signed elsewhere as it is (loginWithSiweMessage)', async () => {
    const { fetch, seen } = gateway();
    const signed = { message: 'm', signature: '0xab' };
    const itp = createClient({ baseUrl: 'http://gw', fetch });
    await expect(itp.auth.siweNonce()).resolves.toEqual(NONCE);
    await expect(itp.auth.loginWithSiweMessage(signed)).resolves.toEqual(loginResult);
    expect(seen.map((r) => r.body)).toEqual([{}, signed]);
  });
});

describe('auth.linkAddress and auth.unlinkAddress', () => {
  it.each(signers())(
    'links the $kind address with the bearer JWT and a message it signed',
    async ({ signer, address }) => {
      const { fetch, seen } = gateway();
      const me = createClient({ baseUrl: 'http://gw', fetch }).withToken('user-jwt');
      await expect(me.auth.linkAddress(signer)).resolves.toEqual({
        address: 'from-message',
        userId: 'demo',
      });
      expect(seen.map((r) => [r.url, r.headers['authorization']])).toEqual([
        ['http://gw/v2/auth/siwe/nonce', undefined],
        ['http://gw/v2/auth/link-address', 'Bearer user-jwt'],
      ]);
      const { parsed, verified } = await postedMessage(seen[1], address);
      expect(parsed).toMatchObject({
        nonce: NONCE.nonce,
        address,
        statement: `Link this address to your account on ${NONCE.domain}`,
      });
      expect(verified).toBe(true);
    },
  );

  it('without a token throws UnauthorizedError before the signer signs or anything is sent', async () => {
    const { fetch, seen } = gateway();
    let signed = 0;
    const signer: SiweSigner = {
      address: privateKeyToAccount(generatePrivateKey()).address,
      signMessage: async () => (signed++, '0x00'),
    };
    const err = await createClient({ baseUrl: 'http://gw', fetch })
      .auth.linkAddress(signer)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnauthorizedError);
    expect(err).toMatchObject({ source: 'client', operation: '/v2/auth/link-address' });
    expect((err as Error).message).toContain('withToken');
    expect([seen.length, signed]).toEqual([0, 0]);
    // a token of the call is enough
    await createClient({ baseUrl: 'http://gw', fetch }).auth.linkAddress(signer, undefined, {
      token: 'call-jwt',
    });
    expect(seen[1]?.headers['authorization']).toBe('Bearer call-jwt');
  });

  it('throws AddressTakenError (not a TempKeyError) for 409', async () => {
    const { signer } = viemSigner();
    const err = await createClient({
      baseUrl: 'http://gw',
      fetch: gateway({ status: 409, message: 'linked to another user' }).fetch,
      token: 't',
    })
      .auth.linkAddress(signer)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AddressTakenError);
    expect(err).toMatchObject({ code: '409', status: 409 });
  });

  it('unlinks an address with the bearer JWT; AddressNotLinkedError for 404', async () => {
    const address = privateKeyToAccount(generatePrivateKey()).address;
    const { fetch, seen } = gateway();
    await expect(
      createClient({ baseUrl: 'http://gw', fetch, token: 't' }).auth.unlinkAddress(address),
    ).resolves.toEqual({ address, userId: 'demo' });
    expect([seen[0]?.url, seen[0]?.headers['authorization'], seen[0]?.body]).toEqual([
      'http://gw/v2/auth/unlink-address',
      'Bearer t',
      { address },
    ]);
    const err = await createClient({
      baseUrl: 'http://gw',
      fetch: gateway({ status: 404, message: 'not linked to you' }).fetch,
      token: 't',
    })
      .auth.unlinkAddress(address)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AddressNotLinkedError);
  });
});
