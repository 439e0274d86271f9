import { describe, expect, it } from '@jest/globals';
import { ES256KSigner, createJWS, hexToBytes } from 'did-jwt';
import type { DIDResolutionResult, Resolvable } from 'did-resolver';
import { Wallet } from 'ethers';
import { secp256k1JwkOfPrivateKey } from './secp256k1-keys.js';
import { verifyDidSignedJwt } from './verify-did-signed-jwt.js';

/** did:ethr:<address> documents as ethr-did-resolver answers them; `listed` false: not usable. */
const resolverOf = (listed = true): Resolvable => ({
  resolve: async (did: string): Promise<DIDResolutionResult> => {
    const id = `${did}#controller`;
    return {
      didResolutionMetadata: {},
      didDocumentMetadata: {},
      didDocument: {
        id: did,
        verificationMethod: [
          {
            id,
            type: 'EcdsaSecp256k1RecoveryMethod2020',
            controller: did,
            blockchainAccountId: `eip155:31337:${did.split(':').pop()!}`,
          },
        ],
        authentication: listed ? [id] : [],
        assertionMethod: listed ? [id] : [],
      },
    };
  },
});

const key = Wallet.createRandom();
const did = `did:ethr:${key.address}`;
const signed = (privateKey = key.privateKey) =>
  createJWS({ iss: did }, ES256KSigner(hexToBytes(privateKey)), { alg: 'ES256K' });
const bySigner = (didUrl: string) => ({ method: 'did' as const, didUrl, alg: 'ES256K' });

describe('verifyDidSignedJwt', () => {
  it("verifies a JWS of the DID's controller key, by its DID URL or the bare DID", async () => {
    const verify = verifyDidSignedJwt(resolverOf());
    const compact = await signed();
    const expected = { verified: true, signerJwk: await secp256k1JwkOfPrivateKey(key.privateKey) };
    await expect(verify(bySigner(`${did}#controller`), { compact })).resolves.toEqual(expected);
    await expect(verify(bySigner(did), { compact })).resolves.toEqual(expected);
  });

  it("refuses another key's signature, an unknown fragment, an unlisted method, a non-DID signer", async () => {
    const verify = verifyDidSignedJwt(resolverOf());
    const refused = { verified: false };
    const forged = await signed(Wallet.createRandom().privateKey);
    await expect(verify(bySigner(`${did}#controller`), { compact: forged })).resolves.toEqual(
      refused,
    );
    const compact = await signed();
    await expect(verify(bySigner(`${did}#other`), { compact })).resolves.toEqual(refused);
    await expect(
      verifyDidSignedJwt(resolverOf(false))(bySigner(`${did}#controller`), { compact }),
    ).resolves.toEqual(refused);
    await expect(
      verify({ method: 'jwk', publicJwk: { kty: 'EC' }, alg: 'ES256K' }, { compact }),
    ).resolves.toEqual(refused);
  });
});
