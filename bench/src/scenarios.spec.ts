import { describe, expect, it } from '@jest/globals';
import { ES256KSigner, createJWT } from 'did-jwt';
import { Wallet } from 'ethers';
import { recoveriesNote } from './scenarios.js';

describe('recoveriesNote (verify-vc)', () => {
  it('names the recovery id of an ES256K signature and the key recoveries did-jwt makes', async () => {
    const seen = new Set<number>();
    for (let i = 0; i < 12 && seen.size < 2; i++) {
      const wallet = Wallet.createRandom();
      const did = `did:ethr:0x7a69:${wallet.address}`;
      const key = Buffer.from(wallet.privateKey.slice(2), 'hex');
      // ES256K-R: the same signature with its recovery id appended, for the expected value.
      const recoverable = await createJWT(
        { n: i },
        { issuer: did, signer: ES256KSigner(key, true) },
        { alg: 'ES256K-R' },
      );
      const [, , sig] = recoverable.split('.');
      const bytes = Buffer.from(sig!, 'base64url');
      const id = bytes[64]!;
      const [h, p] = recoverable.split('.');
      const plain = `${h}.${p}.${bytes.subarray(0, 64).toString('base64url')}`;
      expect(recoveriesNote(plain)).toContain(`recovery id ${id} (${id + 1} key recover`);
      seen.add(id);
    }
    expect([...seen].sort()).toEqual([0, 1]);
  });

  it('says so when the signature belongs to no key of the issuer', async () => {
    const signer = Wallet.createRandom();
    const other = Wallet.createRandom();
    const jwt = await createJWT(
      {},
      {
        issuer: `did:ethr:${other.address}`,
        signer: ES256KSigner(Buffer.from(signer.privateKey.slice(2), 'hex')),
      },
      { alg: 'ES256K' },
    );
    expect(recoveriesNote(jwt)).toBe('the credential signature recovers to no key of its issuer');
  });
});
