import { describe, expect, it } from '@jest/globals';
import { decodeJWT } from 'did-jwt';
import { verifyPresentation } from 'did-jwt-vc';
import { exportJWK, generateKeyPair, jwtVerify } from 'jose';
import { presentationJwt } from './presentation-jwt.js';
import { credentialFor, newEthrKey, stubEthrResolver } from './testing/loopback-verifier.js';

const VC = 'eyJhbGciOiJFUzI1NksifQ.eyJ2YyI6e319.c2ln';

describe('presentationJwt', () => {
  it('signs a did:ethr holder’s VP ES256K, kid its controller, bound by aud and nonce', async () => {
    const holder = newEthrKey();
    const vcJwt = await credentialFor(holder.did, ['VerifiableCredential', 'Profile']);
    const jwt = await presentationJwt(holder, [vcJwt], { aud: 'verifier', nonce: 'n-1' });
    expect(decodeJWT(jwt).header).toEqual({
      alg: 'ES256K',
      typ: 'JWT',
      kid: `${holder.did}#controller`,
    });
    const verified = await verifyPresentation(jwt, stubEthrResolver, {
      audience: 'verifier',
      challenge: 'n-1',
    });
    expect(verified.issuer).toBe(holder.did);
    expect(verified.payload).toMatchObject({
      vp: {
        '@context': ['https://www.w3.org/2018/credentials/v1'],
        type: ['VerifiablePresentation'],
        verifiableCredential: [vcJwt],
      },
    });
  });

  it('keeps an audience array as given', async () => {
    const jwt = await presentationJwt(newEthrKey(), [], { aud: ['a', 'b'], nonce: 'n' });
    expect(decodeJWT(jwt).payload).toMatchObject({ aud: ['a', 'b'], nonce: 'n' });
  });

  it('signs a did:jwk holder’s VP ES256 with its own key and kid', async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256');
    const did = `did:jwk:${Buffer.from(JSON.stringify(await exportJWK(publicKey))).toString('base64url')}`;
    const jwt = await presentationJwt({ did, kid: `${did}#0`, privateKey }, [VC], {
      aud: 'verifier',
      nonce: 'n-2',
    });
    const { payload, protectedHeader } = await jwtVerify(jwt, publicKey, {
      audience: 'verifier',
      issuer: did,
    });
    expect(protectedHeader).toEqual({ alg: 'ES256', typ: 'JWT', kid: `${did}#0` });
    expect(payload).toMatchObject({ nonce: 'n-2', vp: { verifiableCredential: [VC] } });
  });

  it('refuses a did:ethr key that is no 64 hex digits', async () => {
    await expect(
      presentationJwt({ did: 'did:ethr:0x1', privateKey: 'abc' }, [], { aud: 'a', nonce: 'n' }),
    ).rejects.toThrow(/64 hex digits/);
  });
});
