import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  BadGatewayError,
  BadRequestError,
  ForbiddenError,
  ServiceUnavailableError,
  UnauthorizedError,
} from '@itp/errors';
import { freePort } from '@itp/testing';
import { sendJson, startTestServer, type TestServer } from '../testing/http-server.js';
import { startWalletStandIn, type WalletStandIn } from '../testing/wallet-stand-in.js';
import { TokenRpcWallet } from './token-rpc-wallet.js';

describe('TokenRpcWallet (token-rpc internal wallet API)', () => {
  const token = 'internal-token-for-tests';
  let standIn: WalletStandIn;
  let broken: TestServer;
  beforeAll(async () => {
    standIn = await startWalletStandIn(token);
    broken = await startTestServer((_req, _body, res) => sendJson(res, 200, { address: 'nope' }));
  });
  afterAll(async () => {
    await Promise.all([standIn.close(), broken.close()]);
  });

  const jws = (alg: string, iss: string) =>
    [
      { alg, typ: 'JWT' },
      { iss, sub: 'x' },
    ]
      .map((part) => Buffer.from(JSON.stringify(part)).toString('base64url'))
      .join('.');

  it('registers an address for its DID, then signs only JWS for that DID', async () => {
    const account = standIn.createAddress();
    const wallet = new TokenRpcWallet({ baseUrl: standIn.url, internalApiToken: token });
    const input = jws('ES256K', `did:ethr:${account.address}`);
    await expect(wallet.signJws(account.address, input)).rejects.toBeInstanceOf(ForbiddenError);
    const key = await wallet.registerDid(account.address, account.secretKey);
    expect(key.address).toBe(account.address);
    expect(key.publicKeyHex).toMatch(/^04[0-9a-f]{128}$/);
    const other = standIn.createAddress();
    await expect(
      wallet.signJws(account.address, jws('ES256K', `did:ethr:${other.address}`)),
    ).rejects.toBeInstanceOf(BadRequestError);
    await expect(
      wallet.signJws(account.address, jws('HS256', `did:ethr:${account.address}`)),
    ).rejects.toBeInstanceOf(BadRequestError);
    // A transaction hash or other raw data, and unencoded payloads, are never signed.
    const unencoded = [{ alg: 'ES256K', b64: false }, { iss: `did:ethr:${account.address}` }]
      .map((part) => Buffer.from(JSON.stringify(part)).toString('base64url'))
      .join('.');
    for (const refused of [`0x${'ab'.repeat(32)}`, unencoded, `${input}.extra`]) {
      await expect(wallet.signJws(account.address, refused)).rejects.toBeInstanceOf(
        BadRequestError,
      );
    }
    const signature = await wallet.signJws(account.address, input);
    expect(signature).toEqual({
      r: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      s: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      recoveryParam: expect.any(Number),
    });
  });

  it('answers one 401 for a wrong secret and an unknown address', async () => {
    const account = standIn.createAddress();
    const wallet = new TokenRpcWallet({ baseUrl: standIn.url, internalApiToken: token });
    await expect(wallet.registerDid(account.address, 'wrong')).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    await expect(
      wallet.registerDid('0x000000000000000000000000000000000000dEaD', 'x'),
    ).rejects.toThrow('address and secretKey do not match a wallet address');
  });

  it('turns a broken or absent upstream into 502 / 503', async () => {
    const garbled = new TokenRpcWallet({ baseUrl: broken.url, internalApiToken: token });
    await expect(
      garbled.registerDid('0x000000000000000000000000000000000000dEaD', 'x'),
    ).rejects.toBeInstanceOf(BadGatewayError);
    await expect(
      garbled.signJws(
        '0x000000000000000000000000000000000000dEaD',
        jws('ES256K', 'did:ethr:0x000000000000000000000000000000000000dEaD'),
      ),
    ).rejects.toBeInstanceOf(BadGatewayError);
    const absent = new TokenRpcWallet({
      baseUrl: `http://127.0.0.1:${await freePort()}`,
      internalApiToken: token,
    });
    await expect(
      absent.registerDid('0x000000000000000000000000000000000000dEaD', 'x'),
    ).rejects.toBeInstanceOf(ServiceUnavailableError);
  });
});
