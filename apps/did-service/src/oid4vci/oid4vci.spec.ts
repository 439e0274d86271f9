import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { verifyCredential } from 'did-jwt-vc';
import { ES256KSigner, bytesToMultibase, createJWS, decodeJWT } from 'did-jwt';
import { Wallet } from 'ethers';
import { SignJWT, UnsecuredJWT } from 'jose';
import { Openid4vciRetrieveCredentialsError } from '@openid4vc/openid4vci';
import {
  HARNESS_PUBLIC_URL,
  startDidHarness,
  type DidHarness,
  type HttpAnswer,
} from '../testing/did-harness.js';
import { newDidJwkKey, oid4vciTestWallet, type WalletKey } from '../testing/oid4vci-wallet.js';
import { thirdPartyResolver } from '../testing/third-party-resolver.js';
import { nextTokensValidAfter } from '@itp/auth-jwt';
import { ITP_PROFILE_CONFIGURATION_ID, MAX_TX_CODE_ATTEMPTS } from './oid4vci-issuance.js';

const ISSUER = `${HARNESS_PUBLIC_URL}/v2/did/oid4vci`;
const PRE_AUTHORIZED = 'urn:ietf:params:oauth:grant-type:pre-authorized_code';

/** A 6-digit tx_code that is not `right`. */
const otherTxCode = (right: string) => (right === '000000' ? '000001' : '000000');

/** `count` distinct 6-digit tx_codes, none of them `right`. */
const wrongTxCodes = (right: string, count: number) =>
  Array.from({ length: count + 1 }, (_, i) => String(i).padStart(6, '0'))
    .filter((guess) => guess !== right)
    .slice(0, count);

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

  const redeem = async (
    fields: Record<string, string>,
    serviceUrl = h.url,
  ): Promise<HttpAnswer> => {
    const res = await fetch(`${serviceUrl}/v2/did/oid4vci/token`, {
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

  /** POST nonce, from `address` when given (X-Forwarded-For of the gateway's hop). */
  const askNonce = (address?: string) =>
    fetch(`${h.url}/v2/did/oid4vci/nonce`, {
      method: 'POST',
      headers: address ? { 'x-forwarded-for': address } : {},
    });

  const newNonce = async () => {
    const res = await askNonce();
    expect(res.status).toBe(200);
    return ((await res.json()) as { c_nonce: string }).c_nonce;
  };

  /** A proof JWT as OpenID4VCI 1.0 Appendix F.1 says, with parts a test may change. */
  const proof = (
    key: WalletKey,
    claims: { nonce?: string; aud?: string },
    options: { kid?: string; signWith?: WalletKey; typ?: string; iat?: number } = {},
  ) =>
    new SignJWT({ aud: ISSUER, ...claims })
      .setProtectedHeader({
        alg: 'ES256',
        typ: options.typ ?? 'openid4vci-proof+jwt',
        kid: options.kid ?? key.kid,
      })
      .setIssuedAt(options.iat)
      .sign((options.signWith ?? key).privateKey);

  const requestCredential = async (
    token: string,
    proofs: string[] | undefined,
    options: { scheme?: string; request?: Record<string, unknown> } = {},
  ): Promise<HttpAnswer> => {
    const res = await fetch(`${h.url}/v2/did/oid4vci/credential`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `${options.scheme ?? 'Bearer'} ${token}`,
      },
      body: JSON.stringify({
        ...(options.request ?? { credential_configuration_id: ITP_PROFILE_CONFIGURATION_ID }),
        ...(proofs ? { proofs: { jwt: proofs } } : {}),
      }),
    });
    return { status: res.status, headers: res.headers, body: await res.json() };
  };

  beforeAll(async () => {
    h = await startDidHarness(
      {
        // The spec plays the gateway's hop (X-Forwarded-For) for the nonce limit.
        TRUST_PROXY: 'loopback',
        // Every users/status answer fresh: an epoch the stand-in moves counts at once (the
        // cache itself: users/active-users.spec.ts).
        USER_STATUS_CACHE_MS: '0',
      },
      { now: () => Date.now() + skewMs },
    );
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

    it('asks for a tx_code by default; { txCode: false } opts out', async () => {
      const byDefault = await createOffer('dora');
      expect(byDefault.status).toBe(200);
      expect(byDefault.body.txCode).toMatch(/^[0-9]{6}$/);
      const offer = await fetchOffer(byDefault.body.credentialOfferUri);
      expect(offer.body.grants[PRE_AUTHORIZED].tx_code).toMatchObject({
        input_mode: 'numeric',
        length: 6,
      });
      const code = offer.body.grants[PRE_AUTHORIZED]['pre-authorized_code'] as string;
      expect((await redeem({ 'pre-authorized_code': code })).body.error).toBe('invalid_request');

      const without = await createOffer('dora', { txCode: false });
      expect(without.status).toBe(200);
      expect(without.body.txCode).toBeUndefined();
      const plain = await fetchOffer(without.body.credentialOfferUri);
      expect(plain.body.grants[PRE_AUTHORIZED].tx_code).toBeUndefined();
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
      const wrong = otherTxCode(first.txCode!);
      const refused = await redeem({ 'pre-authorized_code': first.code, tx_code: wrong });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ error: 'invalid_grant', error_description: 'Wrong tx_code' });
      // Without the tx_code at all: invalid_request (OpenID4VCI 1.0 §6.3), not an attempt.
      const missing = await redeem({ 'pre-authorized_code': first.code });
      expect(missing.body.error).toBe('invalid_request');
      const right = await redeem({ 'pre-authorized_code': first.code, tx_code: first.txCode! });
      expect(right.status).toBe(200);

      // Two mistakes, then the right one: still redeemed (the user mistyped twice).
      const typo = await newCode('dora', true);
      for (let i = 0; i < MAX_TX_CODE_ATTEMPTS - 1; i += 1) {
        const res = await redeem({
          'pre-authorized_code': typo.code,
          tx_code: otherTxCode(typo.txCode!),
        });
        expect(res.body.error_description).toBe('Wrong tx_code');
      }
      const third = await redeem({ 'pre-authorized_code': typo.code, tx_code: typo.txCode! });
      expect(third.status).toBe(200);

      const second = await newCode('dora', true);
      const other = otherTxCode(second.txCode!);
      for (let i = 0; i < MAX_TX_CODE_ATTEMPTS; i += 1) {
        const res = await redeem({ 'pre-authorized_code': second.code, tx_code: other });
        expect(res.body.error).toBe('invalid_grant');
      }
      const late = await redeem({ 'pre-authorized_code': second.code, tx_code: second.txCode! });
      expect(late.body.error).toBe('invalid_grant');
    });

    describe('tx_code attempts cannot be raced (one atomic count per attempt, real Redis)', () => {
      /** How many answers say their tx_code was compared and wrong. */
      const comparedWrong = (answers: HttpAnswer[]) =>
        answers.filter((a) => a.body.error_description === 'Wrong tx_code').length;

      it('40 concurrent wrong tx_codes get 3 comparisons; the right one after them is refused', async () => {
        const { code, txCode } = await newCode('dora', true);
        const answers = await Promise.all(
          wrongTxCodes(txCode!, 40).map((guess) =>
            redeem({ 'pre-authorized_code': code, tx_code: guess }),
          ),
        );
        expect(answers.every((a) => a.status === 400 && a.body.error === 'invalid_grant')).toBe(
          true,
        );
        expect(comparedWrong(answers)).toBe(MAX_TX_CODE_ATTEMPTS);
        const right = await redeem({ 'pre-authorized_code': code, tx_code: txCode! });
        expect(right.status).toBe(400);
        expect(right.body.error).toBe('invalid_grant');
      });

      it('of 50 concurrent attempts with the right one 30th, at most 3 are compared and the right one only redeems among them', async () => {
        for (let round = 0; round < 3; round += 1) {
          const { code, txCode } = await newCode('dora', true);
          const guesses = wrongTxCodes(txCode!, 49);
          guesses.splice(29, 0, txCode!);
          const answers = await Promise.all(
            guesses.map((guess) => redeem({ 'pre-authorized_code': code, tx_code: guess })),
          );
          const redeemed = answers.filter((a) => a.status === 200);
          expect(redeemed.length).toBeLessThanOrEqual(1);
          // Every comparison is one of the first three attempts: a redemption takes one of them.
          expect(comparedWrong(answers) + redeemed.length).toBeLessThanOrEqual(
            MAX_TX_CODE_ATTEMPTS,
          );
          expect(answers[29]!.status === 200).toBe(redeemed.length === 1);
          expect((await redeem({ 'pre-authorized_code': code, tx_code: txCode! })).status).toBe(
            400,
          );
        }
      });

      it('two replicas share the count: 40 wrong tx_codes spread over both, then the right one on either is refused', async () => {
        const replica = await h.buildWith({ TRUST_PROXY: 'loopback', USER_STATUS_CACHE_MS: '0' });
        try {
          const { url: replicaUrl } = await replica.service.listen();
          const { code, txCode } = await newCode('dora', true);
          const answers = await Promise.all(
            wrongTxCodes(txCode!, 40).map((guess, i) =>
              redeem({ 'pre-authorized_code': code, tx_code: guess }, i % 2 ? replicaUrl : h.url),
            ),
          );
          expect(comparedWrong(answers)).toBe(MAX_TX_CODE_ATTEMPTS);
          for (const url of [replicaUrl, h.url]) {
            const right = await redeem({ 'pre-authorized_code': code, tx_code: txCode! }, url);
            expect(right.body.error).toBe('invalid_grant');
          }

          // The path after a mistake, across replicas: one wrong on each, the right one redeems.
          const retry = await newCode('dora', true);
          for (const url of [h.url, replicaUrl]) {
            const res = await redeem(
              { 'pre-authorized_code': retry.code, tx_code: otherTxCode(retry.txCode!) },
              url,
            );
            expect(res.body.error_description).toBe('Wrong tx_code');
          }
          const ok = await redeem(
            { 'pre-authorized_code': retry.code, tx_code: retry.txCode! },
            replicaUrl,
          );
          expect(ok.status).toBe(200);
        } finally {
          await replica.service.close();
        }
      });
    });

    it('refuses an unknown code and answers other grant types unsupported_grant_type', async () => {
      expect((await redeem({ 'pre-authorized_code': 'nope' })).body.error).toBe('invalid_grant');
      const res = await redeem({ grant_type: 'authorization_code', code: 'x' });
      expect(res.body.error).toBe('unsupported_grant_type');
    });
  });

  describe('offers end with the account (a reset, a disable or a logout everywhere)', () => {
    /** The user's epoch moved now, as auth-service moves it; answers it (Unix seconds). */
    const moveEpoch = (user: string) => {
      const epoch = nextTokensValidAfter(Date.now());
      h.auth.setTokensValidAfter(user, epoch);
      return epoch;
    };

    /** An offer made now with a login at `epoch` (auth-service dates it at or after the epoch). */
    const offerAfter = async (user: string, epoch: number) => {
      const bearerAfter = {
        authorization: `Bearer ${await h.auth.tokenFor(user, { issuedAt: epoch })}`,
      };
      const res = await h.post(
        '/v2/did/credential-offer',
        { txCode: false, userInfo: { name: user } },
        bearerAfter,
      );
      expect(res.status).toBe(200);
      const offer = await fetchOffer(res.body.credentialOfferUri);
      return offer.body.grants[PRE_AUTHORIZED]['pre-authorized_code'] as string;
    };

    it('an offer made before the epoch moved is not redeemed (invalid_grant); a new offer after is', async () => {
      const { code } = await newCode('erin');
      const epoch = moveEpoch('erin');
      const refused = await redeem({ 'pre-authorized_code': code });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        error: 'invalid_grant',
        error_description: expect.stringMatching(/password reset/),
      });
      // The offer is gone for good (the code was dropped).
      expect(await h.app.oid4vciStore.readCode(code)).toBeUndefined();

      // The service's clock in the second of the epoch (no waiting): the new offer redeems.
      skewMs = Math.max(0, epoch * 1000 - Date.now());
      try {
        const fresh = await offerAfter('erin', epoch);
        expect((await redeem({ 'pre-authorized_code': fresh })).status).toBe(200);
      } finally {
        skewMs = 0;
      }
    });

    it('a code redeemed before the epoch moved gets no credential (credential_request_denied)', async () => {
      const key = await newDidJwkKey();
      const token = await accessToken('fred');
      moveEpoch('fred');
      const res = await requestCredential(token, [await proof(key, { nonce: await newNonce() })]);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('credential_request_denied');
    });

    it('a disabled user’s offer is not redeemed', async () => {
      const { code } = await newCode('gina');
      h.auth.setActive('gina', false);
      try {
        expect((await redeem({ 'pre-authorized_code': code })).body.error).toBe('invalid_grant');
      } finally {
        h.auth.setActive('gina', true);
      }
    });
  });

  describe('nonce endpoint', () => {
    it('answers OID4VCI_NONCES_PER_IP_PER_MINUTE (60) nonces per client address and minute, then 429 slow_down with Retry-After; another address still gets one', async () => {
      const limit = 60;
      const answers = await Promise.all(
        Array.from({ length: limit }, () => askNonce('203.0.113.7')),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(limit).fill(200));
      const over = await askNonce('203.0.113.7');
      expect(over.status).toBe(429);
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(Number(over.headers.get('retry-after'))).toBeLessThanOrEqual(60);
      expect(over.headers.get('cache-control')).toBe('no-store');
      expect(await over.json()).toEqual({
        error: 'slow_down',
        error_description: expect.any(String),
      });
      expect((await askNonce('203.0.113.8')).status).toBe(200);
    });

    it('has no limit with OID4VCI_NONCES_PER_IP_PER_MINUTE=0', async () => {
      const unlimited = await h.buildWith({
        TRUST_PROXY: 'loopback',
        OID4VCI_NONCES_PER_IP_PER_MINUTE: '0',
      });
      try {
        const { url } = await unlimited.service.listen();
        const answers = await Promise.all(
          Array.from({ length: 61 }, () =>
            fetch(`${url}/v2/did/oid4vci/nonce`, {
              method: 'POST',
              headers: { 'x-forwarded-for': '203.0.113.9' },
            }),
          ),
        );
        expect(answers.map((a) => a.status)).toEqual(Array(61).fill(200));
      } finally {
        await unlimited.service.close();
      }
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

    it('refuses a proof with a used, unknown or expired nonce (invalid_nonce)', async () => {
      const token = await accessToken();
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

    it('refuses a proof whose iat is more than 300 s from now, either way (invalid_proof)', async () => {
      const token = await accessToken();
      const now = Math.floor(Date.now() / 1000);
      for (const iat of [now - 86_400, now + 600]) {
        const res = await requestCredential(token, [
          await proof(key, { nonce: await newNonce() }, { iat }),
        ]);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({
          error: 'invalid_proof',
          error_description: expect.stringMatching(/iat/),
        });
      }
      const fresh = await requestCredential(token, [
        await proof(key, { nonce: await newNonce() }, { iat: now - 60 }),
      ]);
      expect(fresh.status).toBe(200);
    });

    describe('refusals as OpenID4VCI 1.0 §8.3.1.2 names them, read by a third-party wallet', () => {
      /** The body of the refusal the wallet library (Openid4vciClient) read, or a failure. */
      const refusalOf = async (request: Promise<unknown>) => {
        const err = await request.then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(err).toBeInstanceOf(Openid4vciRetrieveCredentialsError);
        const { response } = err as Openid4vciRetrieveCredentialsError;
        expect(response.credentialErrorResponseResult?.success).toBe(true);
        return {
          status: response.response.status,
          body: response.credentialErrorResponseResult?.data,
        };
      };

      const walletWith = async (signingKey: WalletKey) => {
        const wallet = oid4vciTestWallet({ publicUrl: HARNESS_PUBLIC_URL, serviceUrl: h.url });
        wallet.useKey(signingKey.privateKey);
        return { wallet, issuerMetadata: await wallet.client.resolveIssuerMetadata(ISSUER) };
      };

      it('a proof without a nonce is invalid_proof (not invalid_nonce)', async () => {
        const { wallet, issuerMetadata } = await walletWith(key);
        const { jwt } = await wallet.client.createCredentialRequestJwtProof({
          issuerMetadata,
          credentialConfigurationId: ITP_PROFILE_CONFIGURATION_ID,
          signer: { method: 'did', didUrl: key.kid, alg: 'ES256' },
        });
        const refused = await refusalOf(
          wallet.client.retrieveCredentials({
            issuerMetadata,
            accessToken: await accessToken(),
            credentialConfigurationId: ITP_PROFILE_CONFIGURATION_ID,
            proofs: { jwt: [jwt] },
          }),
        );
        expect(refused).toEqual({
          status: 400,
          body: { error: 'invalid_proof', error_description: expect.stringMatching(/nonce/) },
        });
      });

      it('a credential_configuration_id the issuer does not offer is unknown_credential_configuration (a wallet with stale metadata)', async () => {
        const { wallet, issuerMetadata } = await walletWith(key);
        const configuration =
          issuerMetadata.credentialIssuer.credential_configurations_supported[
            ITP_PROFILE_CONFIGURATION_ID
          ]!;
        const known = issuerMetadata.knownCredentialConfigurations[ITP_PROFILE_CONFIGURATION_ID]!;
        // The metadata as the wallet cached it, when the issuer still offered `itp_retired`.
        const stale = {
          ...issuerMetadata,
          credentialIssuer: {
            ...issuerMetadata.credentialIssuer,
            credential_configurations_supported: {
              ...issuerMetadata.credentialIssuer.credential_configurations_supported,
              itp_retired: configuration,
            },
          },
          knownCredentialConfigurations: {
            ...issuerMetadata.knownCredentialConfigurations,
            itp_retired: known,
          },
        };
        const { jwt } = await wallet.client.createCredentialRequestJwtProof({
          issuerMetadata: stale,
          credentialConfigurationId: 'itp_retired',
          signer: { method: 'did', didUrl: key.kid, alg: 'ES256' },
          nonce: await newNonce(),
        });
        const token = await accessToken();
        const refused = await refusalOf(
          wallet.client.retrieveCredentials({
            issuerMetadata: stale,
            accessToken: token,
            credentialConfigurationId: 'itp_retired',
            proofs: { jwt: [jwt] },
          }),
        );
        expect(refused).toEqual({
          status: 400,
          body: {
            error: 'unknown_credential_configuration',
            error_description: expect.stringContaining(ITP_PROFILE_CONFIGURATION_ID),
          },
        });
        // A credential_identifier (this issuer gives none) and a request naming neither.
        const proofs = async () => [await proof(key, { nonce: await newNonce() })];
        const byIdentifier = await requestCredential(token, await proofs(), {
          request: { credential_identifier: 'itp-profile-1' },
        });
        expect(byIdentifier.status).toBe(400);
        expect(byIdentifier.body.error).toBe('unknown_credential_identifier');
        const neither = await requestCredential(token, await proofs(), { request: {} });
        expect(neither.status).toBe(400);
        expect(neither.body.error).toBe('invalid_credential_request');
      });

      it('an unsigned proof (alg none) is invalid_proof', async () => {
        const token = await accessToken();
        const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
        const claims = { aud: ISSUER, iat: Math.floor(Date.now() / 1000) };
        const unsigned = [
          // jose's unsecured JWT: { alg: 'none' } alone.
          new UnsecuredJWT({ ...claims, nonce: await newNonce() }).encode(),
          // Everything a proof has, but alg none and no signature.
          `${b64({ alg: 'none', typ: 'openid4vci-proof+jwt', kid: key.kid })}.${b64({ ...claims, nonce: await newNonce() })}.`,
          // alg none with some signature bytes.
          `${b64({ alg: 'none', typ: 'openid4vci-proof+jwt', kid: key.kid })}.${b64({ ...claims, nonce: await newNonce() })}.c2lnbmF0dXJl`,
        ];
        for (const jwt of unsigned) {
          const res = await requestCredential(token, [jwt]);
          expect(res.status).toBe(400);
          expect(res.body).toEqual({
            error: 'invalid_proof',
            error_description: expect.any(String),
          });
        }
        // A draft wallet's single `proof` too.
        const single = await requestCredential(token, undefined, {
          request: {
            credential_configuration_id: ITP_PROFILE_CONFIGURATION_ID,
            proof: { proof_type: 'jwt', jwt: unsigned[1] },
          },
        });
        expect(single.body.error).toBe('invalid_proof');
        // The access token was not spent by them.
        const ok = await requestCredential(token, [await proof(key, { nonce: await newNonce() })]);
        expect(ok.status).toBe(200);
      });

      it('takes the Bearer scheme in any case (RFC 9110 §11.1: bearer, BEARER)', async () => {
        for (const scheme of ['bearer', 'BEARER', 'BeArEr']) {
          const res = await requestCredential(
            await accessToken(),
            [await proof(key, { nonce: await newNonce() })],
            { scheme },
          );
          expect(res.status).toBe(200);
          expect(res.body.credentials).toHaveLength(1);
        }
        const other = await requestCredential(
          await accessToken(),
          [await proof(key, { nonce: await newNonce() })],
          { scheme: 'DPoP' },
        );
        expect(other.status).toBe(401);
        expect(other.body.error).toBe('invalid_token');
      });
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
