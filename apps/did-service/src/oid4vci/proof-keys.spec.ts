import { describe, expect, it } from '@jest/globals';
import type { Jwk, JwtSigner } from '@openid4vc/oauth2';
import { Resolver } from 'did-resolver';
import { SignJWT, exportJWK } from 'jose';
import { newDidJwkKey } from '../testing/oid4vci-wallet.js';
import { didResolverRegistry } from '../agent/did-resolvers.js';
import { proofJwtVerifier } from './proof-keys.js';

/** The service's resolver registry; its did:ethr network is never reached here (no chain). */
const resolver = new Resolver(
  didResolverRegistry([{ name: 'mainnet', chainId: 31337, rpcUrl: 'http://127.0.0.1:9' } as never]),
);
const verify = proofJwtVerifier((did) => resolver.resolve(did));

const jwtBy = async (key: Awaited<ReturnType<typeof newDidJwkKey>>, kid: string) =>
  new SignJWT({ aud: 'x' }).setProtectedHeader({ alg: 'ES256', kid }).sign(key.privateKey);

const didSigner = (didUrl: string): JwtSigner => ({ method: 'did', didUrl, alg: 'ES256' });

describe('proofJwtVerifier (the proof key of a credential request)', () => {
  it('verifies a did:jwk key without `use`, and returns its JWK', async () => {
    const key = await newDidJwkKey();
    const compact = await jwtBy(key, key.kid);
    const result = await verify(didSigner(key.kid), { header: {}, payload: {}, compact } as never);
    expect(result).toEqual({ verified: true, signerJwk: key.publicJwk });
  });

  it('refuses a did:jwk key for encryption, another key’s signature, a DID without a fragment and other methods', async () => {
    const key = await newDidJwkKey();
    const other = await newDidJwkKey();
    const encJwk = { ...key.publicJwk, use: 'enc' };
    const encDid = `did:jwk:${Buffer.from(JSON.stringify(encJwk)).toString('base64url')}`;
    const cases: Array<[JwtSigner, string]> = [
      [didSigner(`${encDid}#0`), await jwtBy(key, `${encDid}#0`)],
      [didSigner(key.kid), await jwtBy(other, key.kid)],
      [didSigner(key.did), await jwtBy(key, key.did)],
      [didSigner(`${key.did}#1`), await jwtBy(key, `${key.did}#1`)],
      [didSigner('did:web:example.com#key-1'), await jwtBy(key, 'did:web:example.com#key-1')],
      [
        didSigner('did:ethr:0x0000000000000000000000000000000000000001#controller'),
        await jwtBy(key, 'x'),
      ],
    ];
    for (const [signer, compact] of cases) {
      const result = await verify(signer, { header: {}, payload: {}, compact } as never);
      expect(result.verified).toBe(false);
    }
  });

  it('verifies a jwk header signer (SD-JWT proofs, DPoP) only by its own public P-256 key with ES256', async () => {
    const key = await newDidJwkKey();
    const other = await newDidJwkKey();
    const jwkSigner = (publicJwk: Jwk, alg = 'ES256'): JwtSigner => ({
      method: 'jwk',
      publicJwk,
      alg,
    });
    const compact = await jwtBy(key, 'x');
    expect(
      await verify(jwkSigner(key.publicJwk), { header: {}, payload: {}, compact } as never),
    ).toEqual({ verified: true, signerJwk: key.publicJwk });

    const privateJwk = (await exportJWK(key.privateKey)) as Jwk;
    const refused: Array<[JwtSigner, string]> = [
      // Another key signed it.
      [jwkSigner(key.publicJwk), await jwtBy(other, 'x')],
      // Another algorithm than ES256 is named.
      [jwkSigner(key.publicJwk, 'ES384'), compact],
      // A private key in the header.
      [jwkSigner(privateJwk), compact],
      // Not a P-256 key.
      [jwkSigner({ ...key.publicJwk, crv: 'secp256k1' }), compact],
    ];
    for (const [signer, jwt] of refused) {
      const result = await verify(signer, { header: {}, payload: {}, compact: jwt } as never);
      expect(result.verified).toBe(false);
    }
  });
});
