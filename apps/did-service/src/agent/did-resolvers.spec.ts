import { createECDH, generateKeyPairSync } from 'node:crypto';
import { afterAll, describe, expect, it, jest } from '@jest/globals';
import { bytesToMultibase } from 'did-jwt';
import type { DIDCache } from 'did-resolver';
import { JsonRpcProvider } from 'ethers';
import { resolverAware } from '../credentials/check-credential.js';
import { failure } from '../credentials/verification.js';
import { createDidResolver, isSelfContainedDid } from './did-resolvers.js';

// Never asked in these tests (no did:ethr of a known network is resolved): nothing listens there.
const provider = new JsonRpcProvider('http://127.0.0.1:9', 31337, { staticNetwork: true });
const ethrNetworks = [
  { name: 'mainnet', chainId: 31337, provider, registry: `0x${'1'.repeat(40)}` },
];
afterAll(() => provider.destroy());

/** A did:key of a fresh key (did-jwt's multibase / multicodec encoder). */
function didKey(curve: 'Ed25519' | 'P-256' | 'secp256k1'): string {
  if (curve === 'Ed25519') {
    const jwk = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' });
    return `did:key:${bytesToMultibase(Buffer.from(jwk.x ?? '', 'base64url'), 'base58btc', 'ed25519-pub')}`;
  }
  const ecdh = createECDH(curve === 'P-256' ? 'prime256v1' : 'secp256k1');
  ecdh.generateKeys();
  const codec = curve === 'P-256' ? 'p256-pub' : 'secp256k1-pub';
  return `did:key:${bytesToMultibase(ecdh.getPublicKey(undefined, 'compressed'), 'base58btc', codec)}`;
}

function didJwk(): { did: string; jwk: Record<string, unknown> } {
  const { kty, crv, x, y } = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({
    format: 'jwk',
  });
  const jwk = { kty, crv, x, y };
  return { did: `did:jwk:${Buffer.from(JSON.stringify(jwk)).toString('base64url')}`, jwk };
}

describe('createDidResolver', () => {
  const resolver = createDidResolver(ethrNetworks);

  it.each([
    ['Ed25519', 'Ed25519'],
    ['P-256', 'P-256'],
    ['secp256k1', 'secp256k1'],
  ] as const)('resolves a did:key of a %s key to its public key', async (curve, crv) => {
    const did = didKey(curve);
    const { didDocument, didResolutionMetadata } = await resolver.resolve(did);
    expect(didResolutionMetadata.error).toBeUndefined();
    expect(didDocument?.id).toBe(did);
    expect(didDocument?.verificationMethod?.[0]).toMatchObject({
      id: `${did}#${did.slice('did:key:'.length)}`,
      controller: did,
      publicKeyJwk: { crv },
    });
  });

  it('resolves a did:jwk to its JWK as `<did>#0`', async () => {
    const { did, jwk } = didJwk();
    const { didDocument } = await resolver.resolve(did);
    expect(didDocument?.verificationMethod).toEqual([
      { id: `${did}#0`, type: 'JsonWebKey2020', controller: did, publicKeyJwk: jwk },
    ]);
  });

  it('resolves no other method, nor a malformed did:key / did:jwk', async () => {
    for (const did of [
      'did:web:wallet.example.com',
      'did:example:123',
      `did:jwk:${Buffer.from('{"no":"jwk"}').toString('base64url')}`,
      // P-384: a key type the resolver does not support.
      'did:key:z82LkvCwHNreneWpsgPEbV3gu1C6NFJEBg4srfJ5gdxEsMGRJUz2sG9FE42shbn2xkZJh54',
      'did:key:zNotAKey',
    ]) {
      const { didDocument, didResolutionMetadata } = await resolver.resolve(did);
      expect([did, didDocument, typeof didResolutionMetadata.error]).toEqual([did, null, 'string']);
    }
  });

  it('uses the resolution cache for did:ethr only', async () => {
    const cache = jest.fn<DIDCache>((_parsed, resolve) => resolve());
    const cached = createDidResolver(ethrNetworks, cache);
    await cached.resolve(didKey('Ed25519'));
    await cached.resolve(didJwk().did);
    expect(cache).not.toHaveBeenCalled();
    // An unknown network: ethr-did-resolver answers without a chain lookup.
    await cached.resolve(`did:ethr:nonet:0x${'2'.repeat(40)}`);
    expect(cache).toHaveBeenCalledTimes(1);
  });

  it('tells the self-contained methods (did:key, did:jwk) apart', () => {
    expect(isSelfContainedDid('did:key:z6Mk')).toBe(true);
    expect(isSelfContainedDid('did:jwk:eyJ#0')).toBe(true);
    expect(isSelfContainedDid(`did:ethr:0x${'2'.repeat(40)}`)).toBe(false);
    expect(isSelfContainedDid('did:web:example.com')).toBe(false);
  });
});

describe('resolverAware', () => {
  const unresolved = failure('resolver_error', 'resolver_error: Unable to resolve DID document');

  it('does not blame the chain for a did:key / did:jwk that does not resolve', async () => {
    const assertChainAvailable = jest.fn(async () => {
      throw new Error('the chain is down');
    });
    const result = await resolverAware({ assertChainAvailable }, unresolved, 'did:jwk:eyJ');
    expect(result.error.code).toBe('resolver_error');
    expect(assertChainAvailable).not.toHaveBeenCalled();
  });

  it('asks whether the chain is up for any other signer', async () => {
    const assertChainAvailable = jest.fn(async () => undefined);
    for (const signer of [`did:ethr:0x${'2'.repeat(40)}`, 'did:web:example.com', undefined]) {
      expect((await resolverAware({ assertChainAvailable }, unresolved, signer)).error).toEqual({
        code: 'resolver_error',
        message: "The signer's DID could not be resolved on the configured chain",
      });
    }
    expect(assertChainAvailable).toHaveBeenCalledTimes(3);
  });
});
