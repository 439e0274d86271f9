import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { normalizeCredential, normalizePresentation } from 'did-jwt-vc';
import { generateKeyPair } from 'jose';
import { startDidHarness, type DidHarness } from '../testing/did-harness.js';
import { editJwtPayload } from '../testing/jwt-tampering.js';
import {
  didJwkHolder,
  didJwkHolderOf,
  didKeyHolder,
  issueToHolder,
  joseHolder,
  type StandardWalletHolder,
} from '../testing/standard-wallet-holders.js';

/**
 * Holder DIDs of standard wallets (docs/api.md §3): VCs of this service issued to a did:jwk or
 * did:key (what the OpenID4VCI endpoint issues) verify, and so do the VPs their holders sign.
 */
describe('holder DIDs of standard wallets: did:jwk and did:key', () => {
  let h: DidHarness;
  let verifier: string;

  beforeAll(async () => {
    h = await startDidHarness({ VP_LOGIN_MAX_AGE_SECONDS: '300' });
    verifier = (await h.get('/v2/did/verifiers')).body[0].did;
  });
  afterAll(() => h.close());

  /** The VP JSON of a VP JWT, as did-jwt-vc (and create-vp) shapes it. */
  const vpBody = (jwt: string) => normalizePresentation(jwt);

  /** verify-vp's answer for a VP of `holder` over `credentials`, addressed to the verifier. */
  const verifyVp = async (holder: StandardWalletHolder, credentials: string[], aud = verifier) => {
    const res = await h.post(
      '/v2/did/verify-vp',
      vpBody(await holder.present(credentials, { aud })),
    );
    expect(res.status).toBe(200);
    return res.body;
  };

  describe('verify-vp', () => {
    it('verifies a did:jwk (P-256, signed by jose) holder’s VP over a VC issued to that DID', async () => {
      const holder = await didJwkHolder();
      const vcJwt = await issueToHolder(h, holder.did, 'ida', { name: 'Ida' });
      const body = await verifyVp(holder, [vcJwt]);
      expect(body).toMatchObject({
        verified: true,
        issuer: holder.did,
        payload: { iss: holder.did, aud: verifier },
        signer: { id: `${holder.did}#0`, type: 'JsonWebKey2020' },
        verifiablePresentation: { holder: holder.did },
      });
      // The VC alone, as verify-vc takes it.
      const vc = (await h.post('/v2/did/verify-vc', normalizeCredential(vcJwt))).body;
      expect(vc).toMatchObject({
        verified: true,
        payload: { sub: holder.did, vc: { credentialSubject: { sub: 'ida', name: 'Ida' } } },
      });
    });

    it.each([
      ['Ed25519', 'EdDSA'],
      ['P-256', 'ES256'],
      ['secp256k1', 'ES256K'],
    ] as const)('verifies a did:key (%s, %s) holder’s VP', async (curve, alg) => {
      const holder = didKeyHolder(curve);
      expect(holder.alg).toBe(alg);
      const vcJwt = await issueToHolder(h, holder.did, 'ida');
      expect(await verifyVp(holder, [vcJwt])).toMatchObject({
        verified: true,
        issuer: holder.did,
        signer: { id: holder.kid },
      });
    });

    it.each([
      ['secp256k1', 'ES256K'],
      ['Ed25519', 'EdDSA'],
    ] as const)('verifies a did:jwk (%s, %s) holder’s VP', async (curve, alg) => {
      const holder = didJwkHolderOf(curve);
      expect(holder.alg).toBe(alg);
      const vcJwt = await issueToHolder(h, holder.did, 'ida');
      expect(await verifyVp(holder, [vcJwt])).toMatchObject({
        verified: true,
        issuer: holder.did,
        signer: { id: `${holder.did}#0` },
      });
    });

    it('refuses a VP whose signature is not by the key of its holder DID', async () => {
      const jwkHolder = await didJwkHolder();
      const { privateKey } = await generateKeyPair('ES256');
      const impostor = joseHolder(jwkHolder.did, jwkHolder.kid, privateKey);
      const vcJwt = await issueToHolder(h, jwkHolder.did, 'ida');
      expect(await verifyVp(impostor, [vcJwt])).toMatchObject({
        verified: false,
        error: { code: 'invalid_signature' },
      });
      // A did:key VP whose key is another did:key's.
      const keyHolder = didKeyHolder('P-256');
      const other = didKeyHolder('P-256');
      const forged = await other.present([await issueToHolder(h, keyHolder.did, 'ida')], {
        aud: verifier,
      });
      const relabelled = editJwtPayload(forged, (claims) => {
        claims.iss = keyHolder.did;
      });
      const res = await h.post('/v2/did/verify-vp', vpBody(relabelled));
      expect(res.body).toMatchObject({ verified: false, error: { code: 'invalid_signature' } });
    });

    it('refuses a VC issued to another DID (subject_mismatch)', async () => {
      const holder = await didJwkHolder();
      const other = didKeyHolder('Ed25519');
      const vcJwt = await issueToHolder(h, other.did, 'ida');
      expect(await verifyVp(holder, [vcJwt])).toMatchObject({
        verified: false,
        error: { code: 'subject_mismatch' },
      });
    });

    it('refuses holder DIDs that do not resolve, with resolver_error (never a 500)', async () => {
      const { privateKey } = await generateKeyPair('ES256');
      const notAJwk = Buffer.from('{"not":"a jwk"}').toString('base64url');
      for (const did of [
        'did:web:wallet.example.com',
        `did:jwk:${notAJwk}`,
        // did:key of a key type the resolver does not support (P-384).
        'did:key:z82LkvCwHNreneWpsgPEbV3gu1C6NFJEBg4srfJ5gdxEsMGRJUz2sG9FE42shbn2xkZJh54',
      ]) {
        const holder = joseHolder(did, `${did}#0`, privateKey);
        const body = await verifyVp(holder, [await issueToHolder(h, did, 'ida')]);
        expect([did, body.verified, body.error?.code]).toEqual([did, false, 'resolver_error']);
      }
    });

    it('checks the status of a did:jwk holder’s VC: revoked', async () => {
      const holder = await didJwkHolder();
      const vcJwt = await issueToHolder(h, holder.did, 'jan');
      const jan = { authorization: `Bearer ${await h.auth.tokenFor('jan')}` };
      expect((await h.post('/v2/did/revoke-vc', { jwt: vcJwt }, jan)).body).toMatchObject({
        revoked: true,
      });
      expect(await verifyVp(holder, [vcJwt])).toMatchObject({
        verified: false,
        error: { code: 'revoked' },
      });
    });
  });

  describe('verify-login-vp (the phone app’s VP login)', () => {
    it('verifies a did:jwk holder’s VP but logs nobody in: the holder DID is not bound to the user', async () => {
      const holder = await didJwkHolder();
      const vcJwt = await issueToHolder(h, holder.did, 'ida');
      const vp = vpBody(await holder.present([vcJwt], { aud: verifier }));
      const res = await h.postInternal('/internal/v1/verify-login-vp', { vp });
      expect(res.status).toBe(401);
      expect(res.body.error.message).toBe(
        'VP refused (user_mismatch): the holder DID is not bound to the user its credentials name',
      );
    });
  });
});
