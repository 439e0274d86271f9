import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { BadGatewayError, ServiceUnavailableError, UnauthorizedError } from '@itp/errors';
import { freePort } from '@itp/testing';
import { sendJson, startTestServer, type TestServer } from '../test-support/http-server.js';
import { startWalletStandIn, type WalletStandIn } from '../test-support/wallet-stand-in.js';
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

  it('verifies a secretKey and answers the public key without 0x', async () => {
    const account = standIn.createAddress();
    const wallet = new TokenRpcWallet({ baseUrl: standIn.url, internalApiToken: token });
    const key = await wallet.verifySecret(account.address, account.secretKey);
    expect(key.address).toBe(account.address);
    expect(key.publicKeyHex).toMatch(/^04[0-9a-f]{128}$/);
    const signature = await wallet.signDigest(account.address, `0x${'11'.repeat(32)}`);
    expect(signature).toEqual({
      r: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      s: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      recoveryParam: expect.any(Number),
    });
  });

  it('answers one 401 for a wrong secret and an unknown address', async () => {
    const account = standIn.createAddress();
    const wallet = new TokenRpcWallet({ baseUrl: standIn.url, internalApiToken: token });
    await expect(wallet.verifySecret(account.address, 'wrong')).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    await expect(
      wallet.verifySecret('0x000000000000000000000000000000000000dEaD', 'x'),
    ).rejects.toThrow('address and secretKey do not match a wallet address');
  });

  it('turns a broken or absent upstream into 502 / 503', async () => {
    const garbled = new TokenRpcWallet({ baseUrl: broken.url, internalApiToken: token });
    await expect(
      garbled.verifySecret('0x000000000000000000000000000000000000dEaD', 'x'),
    ).rejects.toBeInstanceOf(BadGatewayError);
    await expect(
      garbled.signDigest('0x000000000000000000000000000000000000dEaD', `0x${'11'.repeat(32)}`),
    ).rejects.toBeInstanceOf(BadGatewayError);
    const absent = new TokenRpcWallet({
      baseUrl: `http://127.0.0.1:${await freePort()}`,
      internalApiToken: token,
    });
    await expect(
      absent.verifySecret('0x000000000000000000000000000000000000dEaD', 'x'),
    ).rejects.toBeInstanceOf(ServiceUnavailableError);
  });
});
