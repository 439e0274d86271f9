import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startDidHarness, type DidHarness } from '../testing/did-harness.js';
import { oid4vpTestWallet } from '../testing/oid4vp-wallet.js';
import { thirdPartyResolver } from '../testing/third-party-resolver.js';

// auth-service's presentation requests (contract §14) with a jwt_vc_json query: one VP JWT of
// the wallet's answer, for auth-service's x509_san_dns client id, checked here.
const CLIENT_ID = 'x509_san_dns:api.example.test';
const PATH = '/internal/v1/presentation-requests/verify-vp';

describe('POST /internal/v1/presentation-requests/verify-vp', () => {
  let h: DidHarness;
  let issuer: string;
  let wallet: ReturnType<typeof oid4vpTestWallet>;
  let holder: { did: string; privateKey: string; auth: Record<string, string>; vcJwt: string };

  beforeAll(async () => {
    h = await startDidHarness();
    issuer = (await h.get('/v2/did/issuers')).body[0].did;
    wallet = oid4vpTestWallet(thirdPartyResolver(h.config.DID_REGISTRY_ADDRESS ?? ''));
    const account = h.wallet.createAddress();
    const auth = { authorization: `Bearer ${await h.auth.tokenFor('vera')}` };
    const did = (
      await h.post(
        '/v2/did/create-did',
        { alias: 'vera', address: account.address, secretKey: account.secretKey },
        auth,
      )
    ).body.did as string;
    const vc = (
      await h.post(
        '/v2/did/create-vc',
        { holder: did, issuer, userInfo: { name: 'Vera', email: 'vera@example.test' } },
        auth,
      )
    ).body;
    holder = { did, privateKey: account.privateKey, auth, vcJwt: vc.proof.jwt as string };
  });
  afterAll(() => h.close());

  const vp = (options: { aud?: string; nonce?: string } = {}) =>
    wallet.presentation(holder.did, holder.privateKey, [holder.vcJwt], {
      aud: options.aud ?? CLIENT_ID,
      nonce: options.nonce ?? 'n-1',
    });

  it('answers the holder and each VC’s issuer, types and subject for any client id', async () => {
    const res = await h.postInternal(PATH, { vp: await vp(), nonce: 'n-1', clientId: CLIENT_ID });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      verified: true,
      holder: holder.did,
      credentials: [
        {
          issuer,
          type: expect.arrayContaining(['VerifiableCredential']),
          credentialSubject: expect.objectContaining({
            id: holder.did,
            name: 'Vera',
            email: 'vera@example.test',
          }),
        },
      ],
    });
  });

  it('refuses another nonce, another audience, and a VP signed by another key', async () => {
    const refused = async (body: unknown) => {
      const res = await h.postInternal(PATH, body);
      expect(res.status).toBe(200);
      expect(res.body.verified).toBe(false);
      return (res.body.error as { code: string }).code;
    };
    await expect(refused({ vp: await vp(), nonce: 'n-2', clientId: CLIENT_ID })).resolves.toBe(
      'wrong_nonce',
    );
    await expect(
      refused({
        vp: await vp({ aud: 'x509_san_dns:attacker.example' }),
        nonce: 'n-1',
        clientId: CLIENT_ID,
      }),
    ).resolves.toBe('wrong_audience');
    const other = h.wallet.createAddress();
    const forged = await wallet.presentation(holder.did, other.privateKey, [holder.vcJwt], {
      aud: CLIENT_ID,
      nonce: 'n-1',
    });
    await expect(refused({ vp: forged, nonce: 'n-1', clientId: CLIENT_ID })).resolves.toBe(
      'invalid_signature',
    );
  });

  it('refuses a revoked VC, answers 400 for a bad body and 401 without the internal token', async () => {
    expect((await h.post('/v2/did/revoke-vc', { jwt: holder.vcJwt }, holder.auth)).status).toBe(
      200,
    );
    const res = await h.postInternal(PATH, { vp: await vp(), nonce: 'n-1', clientId: CLIENT_ID });
    expect(res.body).toMatchObject({ verified: false, error: { code: 'revoked' } });
    expect(
      (await h.postInternal(PATH, { vp: 'not a jwt', nonce: 'n', clientId: 'c' })).status,
    ).toBe(400);
    expect(
      (await h.postInternal(PATH, { vp: await vp(), nonce: 'n-1', clientId: CLIENT_ID }, {}))
        .status,
    ).toBe(401);
  });
});
