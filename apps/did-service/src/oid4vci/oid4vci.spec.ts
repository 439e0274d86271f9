import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { verifyCredential } from 'did-jwt-vc';
import { ES256KSigner, bytesToMultibase, createJWS, decodeJWT } from 'did-jwt';
import { Wallet } from 'ethers';
import { SignJWT } from 'jose';
import {
  HARNESS_PUBLIC_URL,
  startDidHarness,
  type DidHarness,
  type HttpAnswer,
} from '../testing/did-harness.js';
import { newDidJwkKey, oid4vciTestWallet, type WalletKey } from '../testing/oid4vci-wallet.js';
import { thirdPartyResolver } from '../testing/third-party-resolver.js';
import { ITP_PROFILE_CONFIGURATION_ID } from './oid4vci-issuance.js';

const ISSUER = `${HARNESS_PUBLIC_URL}/v2/did/oid4vci`;
const PRE_AUTHORIZED = 'urn:ietf:params:oauth:grant-type:pre-authorized_code';

describe('OpenID4VCI 1.0 pre-authorized code flow (contract §10)', () => {
  let h: DidHarness;
  /** Added to the real time by the service's OpenID4VCI clock (expiry tests; no sleeping). */
  let skewMs = 0;

  const bearer = async (user: string) => ({
    authorization: `Bearer ${await h.auth.tokenFor(user)}`,
  });
  const createOffer = async (user: string, body: unknown = {}) =>
    h.post('/v2/did/credential-offer', body, await bearer(user));

  /** The offer JSON behind a credentialOfferUri (fetched once, as a wallet does). */
  const fetchOffer = async (credentialOfferUri: string): Promise<HttpAnswer> => {
    const offerUrl = new URL(credentialOfferUri).searchParams.get('credential_offer_uri') ?? '';
    expect(offerUrl.startsWith(`${ISSUER}/offer/`)).toBe(true);
    const res = await fetch(`${h.url}${new URL(offerUrl).pathname}`);
    return { status: res.status, headers: res.headers, body: await res.json() };
  };

  /** A new offer for `user`: its pre-authorized code and tx_code. */
  const newCode = async (user = 'dora', txCode = false) => {
    const res = await createOffer(user, { txCode, userInfo: { name: user } });
    expect(res.status).toBe(200);
    const offer = await fetchOffer(res.body.credentialOfferUri);
    const code = offer.body.grants[PRE_AUTHORIZED]['pre-authorized_code'] as string;
    return { code, txCode: res.body.txCode as string | undefined };
  };

  const redeem = async (fields: Record<string, string>): Promise<HttpAnswer> => {
    const res = await fetch(`${h.url}/v2/did/oid4vci/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: PRE_AUTHORIZED, ...fields }).toString(),
    });
    return { status: res.status, headers: res.headers, body: await res.json() };
  };

  const accessToken = async (user = 'dora') => {
    const { code } = await newCode(user);
    const res = await redeem({ 'pre-authorized_code': code });
    expect(res.status).toBe(200);
    return res.body.access_token as string;
  };

  const newNonce = async () => {
    const res = await fetch(`${h.url}/v2/did/oid4vci/nonce`, { method: 'POST' });
    expect(res.status).toBe(200);
    return ((await res.json()) as { c_nonce: string }).c_nonce;
  };

  /** A proof JWT as OpenID4VCI 1.0 Appendix F.1 says, with parts a test may change. */
  const proof = (
    key: WalletKey,
    claims: { nonce?: string; aud?: string },
    options: { kid?: string; signWith?: WalletKey; typ?: string } = {},
  ) =>
    new SignJWT({ aud: ISSUER, ...claims })
      .setProtectedHeader({
        alg: 'ES256',
        typ: options.typ ?? 'openid4vci-proof+jwt',
        kid: options.kid ?? key.kid,
      })
      .setIssuedAt()
      .sign((options.signWith ?? key).privateKey);

  const requestCredential = async (
    token: string,
    proofs: string[] | undefined,
  ): Promise<HttpAnswer> => {
    const res = await fetch(`${h.url}/v2/did/oid4vci/credential`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        credential_configuration_id: ITP_PROFILE_CONFIGURATION_ID,
        ...(proofs ? { proofs: { jwt: proofs } } : {}),
      }),
    });
    return { status: res.status, headers: res.headers, body: await res.json() };
  };

  beforeAll(async () => {
    h = await startDidHarness({}, { now: () => Date.now() + skewMs });
  });
  afterAll(() => h.close());

  it('a third-party wallet (Openid4vciClient) with its own did:jwk receives a Profile VC for the user', async () => {
    const key = await newDidJwkKey();
    const wallet = oid4vciTestWallet({ publicUrl: HARNESS_PUBLIC_URL, serviceUrl: h.url });
    wallet.useKey(key.privateKey);

    const offered = await createOffer('dora', {
      txCode: true,
      userInfo: { name: 'Dora', email: 'dora@example.com' },
    });
    expect(offered.status).toBe(200);
    expect(offered.headers.get('cache-control')).toBe('no-store');
    expect(offered.body).toEqual({
      credentialOfferUri: expect.stringMatching(
        /^openid-credential-offer:\/\/\?credential_offer_uri=https%3A%2F%2Fapi\.did-harness\.test%2Fv2%2Fdid%2Foid4vci%2Foffer%2F[A-Za-z0-9_-]{43}$/,
      ),
      txCode: expect.stringMatching(/^[0-9]{6}$/),
      expiresInSeconds: 300,
    });

    const credentialOffer = await wallet.client.resolveCredentialOffer(
      offered.body.credentialOfferUri,
    );
    expect(credentialOffer).toEqual({
      credential_issuer: ISSUER,
      credential_configuration_ids: [ITP_PROFILE_CONFIGURATION_ID],
      grants: {
        [PRE_AUTHORIZED]: {
          'pre-authorized_code': expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
          tx_code: { input_mode: 'numeric', length: 6, description: expect.any(String) },
        },
      },
    });
    // The tx_code is the user's, never in the offer.
    expect(JSON.stringify(credentialOffer)).not.toContain(offered.body.txCode);

    const issuerMetadata = await wallet.client.resolveIssuerMetadata(
      credentialOffer.credential_issuer,
    );
    expect(issuerMetadata.credentialIssuer).toMatchObject({
      credential_issuer: ISSUER,
      credential_endpoint: `${ISSUER}/credential`,
      nonce_endpoint: `${ISSUER}/nonce`,
      credential_configurations_supported: {
        [ITP_PROFILE_CONFIGURATION_ID]: {
          format: 'jwt_vc_json',
          credential_definition: { type: ['VerifiableCredential', 'Profile'] },
        },
      },
    });
    expect(issuerMetadata.authorizationServers[0]).toMatchObject({
      issuer: ISSUER,
      token_endpoint: `${ISSUER}/token`,
    });

    const { accessTokenResponse } =
      await wallet.client.retrievePreAuthorizedCodeAccessTokenFromOffer({
        credentialOffer,
        issuerMetadata,
        txCode: offered.body.txCode,
      });
    expect(accessTokenResponse).toMatchObject({ token_type: 'Bearer', expires_in: 300 });

    const { c_nonce } = await wallet.client.requestNonce({ issuerMetadata });
    const { jwt: proofJwt } = await wallet.client.createCredentialRequestJwtProof({
      issuerMetadata,
      credentialConfigurationId: ITP_PROFILE_CONFIGURATION_ID,
      signer: { method: 'did', didUrl: key.kid, alg: 'ES256' },
      nonce: c_nonce,
    });
    expect(decodeJWT(proofJwt).header).toMatchObject({ typ: 'openid4vci-proof+jwt', kid: key.kid });

    const { credentialResponse } = await wallet.client.retrieveCredentials({
      issuerMetadata,
      accessToken: accessTokenResponse.access_token,
      credentialConfigurationId: ITP_PROFILE_CONFIGURATION_ID,
      proofs: { jwt: [proofJwt] },
    });
    const credentials = credentialResponse.credentials ?? [];
    expect(credentials).toHaveLength(1);
    const vcJwt = (credentials[0] as { credential: string }).credential;

    // A third party verifies it with standard tools (did-jwt-vc, ethr-did-resolver).
    const verified = await verifyCredential(
      vcJwt,
      thirdPartyResolver(h.config.DID_REGISTRY_ADDRESS ?? ''),
    );
    const issuer = (await h.get('/v2/did/issuers')).body[0].did as string;
    expect(verified.issuer).toBe(issuer);
    expect(verified.payload.sub).toBe(key.did);
    expect(verified.verifiableCredential.type).toEqual(['VerifiableCredential', 'Profile']);
    expect(verified.verifiableCredential.credentialSubject).toEqual({
      id: key.did,
      sub: 'dora',
      name: 'Dora',
      email: 'dora@example.com',
    });
    expect(verified.verifiableCredential.credentialStatus).toMatchObject({
      type: 'BitstringStatusListEntry',
      statusPurpose: 'revocation',
    });

    // The user it names may revoke it (§7).
    const revoked = await h.post('/v2/did/revoke-vc', { jwt: vcJwt }, await bearer('dora'));
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked).toBe(true);

    // The access token is spent: one credential per offer.
    const again = await requestCredential(accessTokenResponse.access_token, [
      await proof(key, { nonce: await newNonce() }),
    ]);
    expect(again.status).toBe(401);
    expect(again.body.error).toBe('invalid_token');
  });

  describe('POST /v2/did/credential-offer', () => {
    it('needs the user’s Bearer JWT (401 in the REST shape)', async () => {
      const res = await h.post('/v2/did/credential-offer', {});
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('401');
    });

    it('refuses a claim the service derives (400)', async () => {
      const res = await createOffer('dora', { userInfo: { sub: 'mallory' } });
      expect(res.status).toBe(400);
    });

    it('answers no txCode unless asked', async () => {
      const res = await createOffer('dora');
      expect(res.status).toBe(200);
      expect(res.body.txCode).toBeUndefined();
      const offer = await fetchOffer(res.body.credentialOfferUri);
      expect(offer.body.grants[PRE_AUTHORIZED].tx_code).toBeUndefined();
    });

    it('the offer is answered once: a second GET (or an unknown id) is 404 invalid_request', async () => {
      const res = await createOffer('dora');
      expect((await fetchOffer(res.body.credentialOfferUri)).status).toBe(200);
      const second = await fetchOffer(res.body.credentialOfferUri);
      expect(second.status).toBe(404);
      expect(second.body).toEqual({
        error: 'invalid_request',
        error_description: expect.any(String),
      });
      const unknown = await fetch(`${h.url}/v2/did/oid4vci/offer/${'A'.repeat(43)}`);
      expect(unknown.status).toBe(404);
    });
  });

  describe('metadata', () => {
    it('is served at the well-known path of the issuer and appended to it, the same', async () => {
      const inserted = await h.get('/.well-known/openid-credential-issuer/v2/did/oid4vci');
      const appended = await h.get('/v2/did/oid4vci/.well-known/openid-credential-issuer');
      expect(inserted.status).toBe(200);
      expect(inserted.body.credential_issuer).toBe(ISSUER);
      expect(appended.body).toEqual(inserted.body);
      const as = await h.get('/.well-known/oauth-authorization-server/v2/did/oid4vci');
      expect(as.body).toMatchObject({
        issuer: ISSUER,
        token_endpoint: `${ISSUER}/token`,
        'pre-authorized_grant_anonymous_access_supported': true,
      });
    });
  });

  describe('token endpoint: invalid_grant', () => {
    it('refuses a code redeemed before', async () => {
      const { code } = await newCode();
      expect((await redeem({ 'pre-authorized_code': code })).status).toBe(200);
      const again = await redeem({ 'pre-authorized_code': code });
      expect(again.status).toBe(400);
      expect(again.body).toEqual({ error: 'invalid_grant', error_description: expect.any(String) });
      expect(again.headers.get('cache-control')).toBe('no-store');
    });

    it('of concurrent redemptions of one code exactly one gets an access token', async () => {
      const { code } = await newCode();
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => redeem({ 'pre-authorized_code': code })),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([200, 400, 400, 400, 400]);
      expect(answers.filter((a) => a.status === 400).map((a) => a.body.error)).toEqual(
        Array(4).fill('invalid_grant'),
      );
    });

    it('refuses a redeemed code that Redis brings back (the SQL mark holds)', async () => {
      const { code } = await newCode();
      const before = await h.app.oid4vciStore.readCode(code);
      expect((await redeem({ 'pre-authorized_code': code })).status).toBe(200);
      // Redis restored from a snapshot taken before the redemption.
      await h.app.oid4vciStore.putCode(code, before!.value, 60_000);
      const again = await redeem({ 'pre-authorized_code': code });
      expect(again.status).toBe(400);
      expect(again.body.error).toBe('invalid_grant');
    });

    it('refuses an expired code (after 5 minutes)', async () => {
      const { code } = await newCode();
      skewMs = 301_000;
      try {
        const res = await redeem({ 'pre-authorized_code': code });
        expect(res.status).toBe(400);
        expect(res.body.error).toBe('invalid_grant');
      } finally {
        skewMs = 0;
      }
    });

    it('refuses a wrong tx_code; the code survives two wrong ones, not three', async () => {
      const first = await newCode('dora', true);
      const wrong = first.txCode === '000000' ? '000001' : '000000';
      const refused = await redeem({ 'pre-authorized_code': first.code, tx_code: wrong });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toBe('invalid_grant');
      // Without the tx_code at all: invalid_request (OpenID4VCI 1.0 §6.3).
      const missing = await redeem({ 'pre-authorized_code': first.code });
      expect(missing.body.error).toBe('invalid_request');
      const right = await redeem({ 'pre-authorized_code': first.code, tx_code: first.txCode! });
      expect(right.status).toBe(200);

      const second = await newCode('dora', true);
      const other = second.txCode === '000000' ? '000001' : '000000';
      for (let i = 0; i < 3; i += 1) {
        const res = await redeem({ 'pre-authorized_code': second.code, tx_code: other });
        expect(res.body.error).toBe('invalid_grant');
      }
      const late = await redeem({ 'pre-authorized_code': second.code, tx_code: second.txCode! });
      expect(late.body.error).toBe('invalid_grant');
    });

    it('refuses an unknown code and answers other grant types unsupported_grant_type', async () => {
      expect((await redeem({ 'pre-authorized_code': 'nope' })).body.error).toBe('invalid_grant');
      const res = await redeem({ grant_type: 'authorization_code', code: 'x' });
      expect(res.body.error).toBe('unsupported_grant_type');
    });
  });

  describe('credential endpoint', () => {
    let key: WalletKey;
    let otherKey: WalletKey;

    beforeAll(async () => {
      key = await newDidJwkKey();
      otherKey = await newDidJwkKey();
    });

    it('takes a proof by a did:key (P-256) and by a did:ethr key (ES256K) and issues to that DID', async () => {
      // did:key of the same P-256 key: multicodec p256-pub, compressed point, base58btc.
      const x = Buffer.from(key.publicJwk.x ?? '', 'base64url');
      const y = Buffer.from(key.publicJwk.y ?? '', 'base64url');
      const compressed = Buffer.concat([Buffer.from([(y.at(-1) ?? 0) & 1 ? 3 : 2]), x]);
      const multibase = bytesToMultibase(compressed, 'base58btc', 'p256-pub');
      const didKey = `did:key:${multibase}`;
      const byDidKey = await requestCredential(await accessToken(), [
        await proof(key, { nonce: await newNonce() }, { kid: `${didKey}#${multibase}` }),
      ]);
      expect(byDidKey.status).toBe(200);
      const keyVc = decodeJWT(byDidKey.body.credentials[0].credential).payload;
      expect(keyVc.sub).toBe(didKey);

      const account = Wallet.createRandom();
      const didEthr = `did:ethr:${account.address}`;
      const ethrProof = await createJWS(
        { aud: ISSUER, nonce: await newNonce(), iat: Math.floor(Date.now() / 1000) },
        ES256KSigner(Buffer.from(account.privateKey.slice(2), 'hex')),
        { alg: 'ES256K', typ: 'openid4vci-proof+jwt' as 'JWT', kid: `${didEthr}#controller` },
      );
      const byDidEthr = await requestCredential(await accessToken(), [ethrProof]);
      expect(byDidEthr.status).toBe(200);
      const ethrVc = decodeJWT(byDidEthr.body.credentials[0].credential).payload;
      expect(ethrVc.sub).toBe(didEthr);

      // Another account's DID URL over the same signature: refused.
      const other = `did:ethr:${Wallet.createRandom().address}`;
      const forged = await createJWS(
        { aud: ISSUER, nonce: await newNonce(), iat: Math.floor(Date.now() / 1000) },
        ES256KSigner(Buffer.from(account.privateKey.slice(2), 'hex')),
        { alg: 'ES256K', typ: 'openid4vci-proof+jwt' as 'JWT', kid: `${other}#controller` },
      );
      const refused = await requestCredential(await accessToken(), [forged]);
      expect(refused.body.error).toBe('invalid_proof');
    });

    it('refuses a proof without a nonce, or with a used, unknown or expired one (invalid_nonce)', async () => {
      const token = await accessToken();
      const without = await requestCredential(token, [await proof(key, {})]);
      expect(without.status).toBe(400);
      expect(without.body).toEqual({
        error: 'invalid_nonce',
        error_description: expect.any(String),
      });

      const used = await newNonce();
      // A refused proof spends the nonce too (it is one-time whatever happens).
      const forged = await requestCredential(token, [
        await proof(key, { nonce: used }, { signWith: otherKey }),
      ]);
      expect(forged.body.error).toBe('invalid_proof');
      const stale = await requestCredential(token, [await proof(key, { nonce: used })]);
      expect(stale.body.error).toBe('invalid_nonce');

      const unknown = await requestCredential(token, [await proof(key, { nonce: 'made-up' })]);
      expect(unknown.body.error).toBe('invalid_nonce');

      const old = await newNonce();
      skewMs = 200_000;
      try {
        const freshToken = await accessToken();
        skewMs = 301_000; // the nonce (300 s) expired, the new token (300 s from +200 s) not
        const expired = await requestCredential(freshToken, [await proof(key, { nonce: old })]);
        expect(expired.body.error).toBe('invalid_nonce');
      } finally {
        skewMs = 0;
      }

      // The access token is not spent by refusals.
      const ok = await requestCredential(token, [await proof(key, { nonce: await newNonce() })]);
      expect(ok.status).toBe(200);
    });

    it('refuses a proof signed by another key than its kid, with a wrong aud, or a kid that is no DID URL (invalid_proof)', async () => {
      const token = await accessToken();
      const cases = [
        await proof(key, { nonce: await newNonce() }, { signWith: otherKey }),
        await proof(key, { nonce: await newNonce(), aud: 'https://issuer.example.com' }),
        await proof(key, { nonce: await newNonce() }, { kid: 'key-1' }),
        await proof(key, { nonce: await newNonce() }, { kid: 'did:web:example.com#key-1' }),
        await proof(key, { nonce: await newNonce() }, { typ: 'JWT' }),
      ];
      for (const jwt of cases) {
        const res = await requestCredential(token, [jwt]);
        expect(res.status).toBe(400);
        expect(res.body.error).toBe('invalid_proof');
      }
      const none = await requestCredential(token, undefined);
      expect(none.body.error).toBe('invalid_proof');
    });

    it('needs the access token of the token endpoint (401 invalid_token)', async () => {
      const res = await requestCredential('not-a-token', [
        await proof(key, { nonce: await newNonce() }),
      ]);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
      expect(res.body.error).toBe('invalid_token');
    });
  });
});
