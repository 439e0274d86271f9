import { describe, expect, it } from '@jest/globals';
import { ES256KSigner } from 'did-jwt';
import {
  SigningKey,
  Transaction,
  Wallet,
  getBytes,
  toUtf8Bytes,
  verifyMessage,
  verifyTypedData,
} from 'ethers';
import { BadGatewayError, BadRequestError } from '@itp/errors';
import type { DigestSignature, WalletPort } from '../wallet/wallet-port.js';
import { WalletKeyManagementSystem } from './wallet-kms.js';

interface TestKey {
  address: string;
  privateKey: string;
}

/** An in-memory wallet: signs digests with real keys (the port's contract, without HTTP). */
function memoryWallet(keys: TestKey[], answerWith?: TestKey): WalletPort & { digests: string[] } {
  const digests: string[] = [];
  return {
    digests,
    verifySecret: async () => {
      throw new Error('not used');
    },
    signDigest: async (address: string, digest: string): Promise<DigestSignature> => {
      digests.push(digest);
      const key = answerWith ?? keys.find((k) => k.address === address);
      if (!key) throw new Error('unknown address');
      const signature = new SigningKey(key.privateKey).sign(digest);
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

  it('signs JOSE ES256K exactly as a local key would (RFC 6979), through sign-digest', async () => {
    const wallet = memoryWallet([key]);
    const kms = new WalletKeyManagementSystem(wallet);
    const data = toUtf8Bytes('header.payload');
    const local = ES256KSigner(getBytes(key.privateKey));
    expect(await kms.sign({ keyRef, algorithm: 'ES256K', data })).toBe(await local(data));
    expect(await kms.sign({ keyRef, data })).toBe(await local(data));
    const recoverable = ES256KSigner(getBytes(key.privateKey), true);
    expect(await kms.sign({ keyRef, algorithm: 'ES256K-R', data })).toBe(await recoverable(data));
    expect(wallet.digests).toHaveLength(3);
  });

  it('signs Ethereum messages, typed data and transactions', async () => {
    const kms = new WalletKeyManagementSystem(memoryWallet([key]));
    const message = await kms.sign({
      keyRef,
      algorithm: 'eth_signMessage',
      data: toUtf8Bytes('hello'),
    });
    expect(verifyMessage('hello', message)).toBe(key.address);
    const typed = {
      domain: { name: 'itp', version: '1', chainId: 31337 },
      types: {
        EIP712Domain: [{ name: 'name', type: 'string' }],
        Greeting: [{ name: 'text', type: 'string' }],
      },
      message: { text: 'hi' },
    };
    const typedSignature = await kms.sign({
      keyRef,
      algorithm: 'eth_signTypedData',
      data: toUtf8Bytes(JSON.stringify(typed)),
    });
    expect(
      verifyTypedData(
        typed.domain,
        { Greeting: typed.types.Greeting },
        typed.message,
        typedSignature,
      ),
    ).toBe(key.address);
    const unsigned = Transaction.from({
      to: Wallet.createRandom().address,
      value: 1n,
      chainId: 31337,
      nonce: 0,
      gasLimit: 21000n,
      gasPrice: 1n,
    });
    const signed = await kms.sign({
      keyRef,
      algorithm: 'eth_signTransaction',
      data: getBytes(unsigned.unsignedSerialized),
    });
    expect(Transaction.from(signed).from).toBe(key.address);
  });

  it('refuses a wallet answer signed by another key, and algorithms it does not know', async () => {
    const impostor = new WalletKeyManagementSystem(memoryWallet([key], Wallet.createRandom()));
    await expect(
      impostor.sign({ keyRef, algorithm: 'ES256K', data: toUtf8Bytes('x') }),
    ).rejects.toBeInstanceOf(BadGatewayError);
    const kms = new WalletKeyManagementSystem(memoryWallet([key]));
    await expect(
      kms.sign({ keyRef, algorithm: 'EdDSA', data: toUtf8Bytes('x') }),
    ).rejects.toBeInstanceOf(BadRequestError);
    await expect(
      kms.sign({ keyRef, algorithm: 'eth_signTypedData', data: toUtf8Bytes('{"no":"domain"}') }),
    ).rejects.toBeInstanceOf(BadRequestError);
    await expect(kms.sharedSecret()).rejects.toBeInstanceOf(BadRequestError);
  });
});
