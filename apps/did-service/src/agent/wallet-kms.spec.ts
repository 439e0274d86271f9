import { describe, expect, it } from '@jest/globals';
import { ES256KSigner } from 'did-jwt';
import { SigningKey, Transaction, Wallet, getBytes, sha256, toUtf8Bytes } from 'ethers';
import { BadGatewayError, BadRequestError } from '@itp/errors';
import type { JwsSignature, WalletPort } from '../wallet/wallet-port.js';
import { WalletKeyManagementSystem } from './wallet-kms.js';

interface TestKey {
  address: string;
  privateKey: string;
}

/**
 * An in-memory wallet: signs SHA-256 of a JWS signing input with real keys (the port's contract,
 * without HTTP or token-rpc's header / iss checks, which token-rpc's own tests cover).
 */
function memoryWallet(keys: TestKey[], answerWith?: TestKey): WalletPort & { inputs: string[] } {
  const inputs: string[] = [];
  return {
    inputs,
    registerDid: async () => {
      throw new Error('not used');
    },
    signJws: async (address: string, signingInput: string): Promise<JwsSignature> => {
      inputs.push(signingInput);
      const key = answerWith ?? keys.find((k) => k.address === address);
      if (!key) throw new Error('unknown address');
      const signature = new SigningKey(key.privateKey).sign(sha256(toUtf8Bytes(signingInput)));
      return { r: signature.r, s: signature.s, recoveryParam: signature.yParity };
    },
  };
}

describe('WalletKeyManagementSystem', () => {
  const key = Wallet.createRandom();
  const publicKeyHex = key.signingKey.publicKey.slice(2);
  const keyRef = { kid: key.address };

  it('imports a wallet key by its public key only, kid = address', async () => {
    const kms = new WalletKeyManagementSystem(memoryWallet([key]));
    await expect(
      kms.importKey({
        kid: key.address.toLowerCase(),
        kms: 'wallet',
        type: 'Secp256k1',
        publicKeyHex,
        privateKeyHex: '',
      }),
    ).resolves.toEqual({
      kid: key.address,
      kms: 'wallet',
      type: 'Secp256k1',
      publicKeyHex,
      meta: {
        algorithms: [
          'ES256K',
          'ES256K-R',
          'eth_signTransaction',
          'eth_signTypedData',
          'eth_signMessage',
        ],
      },
    });
    const refused: Parameters<WalletKeyManagementSystem['importKey']>[0][] = [
      {
        kid: key.address,
        kms: 'wallet',
        type: 'Secp256k1',
        publicKeyHex,
        privateKeyHex: key.privateKey.slice(2),
      },
      {
        kid: Wallet.createRandom().address,
        kms: 'wallet',
        type: 'Secp256k1',
        publicKeyHex,
        privateKeyHex: '',
      },
      { kid: key.address, kms: 'wallet', type: 'Ed25519', publicKeyHex, privateKeyHex: '' },
      {
        kid: key.address,
        kms: 'wallet',
        type: 'Secp256k1',
        publicKeyHex: publicKeyHex.slice(2),
        privateKeyHex: '',
      },
    ];
    for (const args of refused)
      await expect(kms.importKey(args)).rejects.toBeInstanceOf(BadRequestError);
    await expect(kms.createKey({ type: 'Secp256k1' })).rejects.toBeInstanceOf(BadRequestError);
  });

  it('signs JOSE ES256K exactly as a local key would (RFC 6979), through sign-jws', async () => {
    const wallet = memoryWallet([key]);
    const kms = new WalletKeyManagementSystem(wallet);
    const data = toUtf8Bytes('header.payload');
    const local = ES256KSigner(getBytes(key.privateKey));
    expect(await kms.sign({ keyRef, algorithm: 'ES256K', data })).toBe(await local(data));
    expect(await kms.sign({ keyRef, data })).toBe(await local(data));
    const recoverable = ES256KSigner(getBytes(key.privateKey), true);
    expect(await kms.sign({ keyRef, algorithm: 'ES256K-R', data })).toBe(await recoverable(data));
    expect(wallet.inputs).toEqual(['header.payload', 'header.payload', 'header.payload']);
  });

  it('refuses to sign Ethereum messages, typed data and transactions, without asking the wallet', async () => {
    const wallet = memoryWallet([key]);
    const kms = new WalletKeyManagementSystem(wallet);
    const unsigned = Transaction.from({
      to: Wallet.createRandom().address,
      value: 10n ** 18n,
      chainId: 31337,
      nonce: 0,
      gasLimit: 21000n,
      gasPrice: 1n,
    });
    for (const [algorithm, data] of [
      ['eth_signMessage', toUtf8Bytes('hello')],
      ['eth_signTypedData', toUtf8Bytes('{"domain":{},"types":{},"message":{}}')],
      ['eth_signTransaction', getBytes(unsigned.unsignedSerialized)],
      ['eth_rawSign', getBytes(unsigned.unsignedHash)],
    ] as const) {
      await expect(kms.sign({ keyRef, algorithm, data })).rejects.toThrow(/not_supported/);
    }
    // Under a JWS algorithm, raw bytes that are no JWS signing input (a transaction) are refused too.
    for (const data of [getBytes(unsigned.unsignedHash), getBytes(unsigned.unsignedSerialized)]) {
      await expect(kms.sign({ keyRef, algorithm: 'ES256K', data })).rejects.toThrow(
        /not_supported/,
      );
    }
    expect(wallet.inputs).toEqual([]);
  });

  it('refuses a wallet answer signed by another key, and algorithms it does not know', async () => {
    const impostor = new WalletKeyManagementSystem(memoryWallet([key], Wallet.createRandom()));
    await expect(
      impostor.sign({ keyRef, algorithm: 'ES256K', data: toUtf8Bytes('header.payload') }),
    ).rejects.toBeInstanceOf(BadGatewayError);
    const kms = new WalletKeyManagementSystem(memoryWallet([key]));
    await expect(
      kms.sign({ keyRef, algorithm: 'EdDSA', data: toUtf8Bytes('x') }),
    ).rejects.toBeInstanceOf(BadRequestError);
    await expect(kms.sharedSecret()).rejects.toBeInstanceOf(BadRequestError);
  });
});
