import { describe, expect, it } from '@jest/globals';
import { ES256KSigner, createJWS, hexToBytes } from 'did-jwt';
import { SigningKey, Wallet } from 'ethers';
import {
  holderDid,
  privateKeyHex,
  recoverSignerJwk,
  secp256k1JwkOfPrivateKey,
  secp256k1PublicJwk,
} from './secp256k1-keys.js';

const key = Wallet.createRandom();
const jws = (privateKey: string) =>
  createJWS({ hello: 'world' }, ES256KSigner(hexToBytes(privateKey)), { alg: 'ES256K' });

describe('secp256k1 keys', () => {
  it('reads a hex private key with or without 0x and refuses anything else', () => {
    expect(privateKeyHex(` ${key.privateKey}\n`)).toBe(key.privateKey.slice(2));
    expect(privateKeyHex(key.privateKey.slice(2).toUpperCase())).toBe(
      key.privateKey.slice(2).toUpperCase(),
    );
    expect(() => privateKeyHex('0x1234')).toThrow(/64 hex digits/);
    expect(() => privateKeyHex('zz'.repeat(32))).toThrow(
      expect.objectContaining({ code: 'invalid_key' }),
    );
  });

  it("names the holder's did:ethr DID by the key's checksummed address", async () => {
    await expect(holderDid(key.privateKey.slice(2))).resolves.toBe(`did:ethr:${key.address}`);
  });

  it('makes the same JWK of a private key, its compressed and its uncompressed public key', async () => {
    const signingKey = new SigningKey(key.privateKey);
    const jwk = await secp256k1JwkOfPrivateKey(key.privateKey);
    expect(jwk).toEqual({
      kty: 'EC',
      crv: 'secp256k1',
      x: Buffer.from(signingKey.publicKey.slice(4, 68), 'hex').toString('base64url'),
      y: Buffer.from(signingKey.publicKey.slice(68), 'hex').toString('base64url'),
    });
    await expect(secp256k1PublicJwk(signingKey.compressedPublicKey.slice(2))).resolves.toEqual(jwk);
    await expect(secp256k1PublicJwk(signingKey.publicKey)).resolves.toEqual(jwk);
  });

  it("recovers the signer's JWK of an ES256K JWS when it is the key of the address", async () => {
    const compact = await jws(key.privateKey.slice(2));
    await expect(recoverSignerJwk(compact, key.address.toLowerCase())).resolves.toEqual(
      await secp256k1JwkOfPrivateKey(key.privateKey),
    );
  });

  it('recovers nothing for another address or a signature that is not r ‖ s', async () => {
    const compact = await jws(key.privateKey.slice(2));
    await expect(recoverSignerJwk(compact, Wallet.createRandom().address)).resolves.toBeUndefined();
    const [header, payload] = compact.split('.');
    await expect(
      recoverSignerJwk(`${header}.${payload}.AAAA`, key.address),
    ).resolves.toBeUndefined();
    await expect(recoverSignerJwk('not-a-jws', key.address)).resolves.toBeUndefined();
  });
});
