import {
  X509Certificate,
  createHash,
  randomBytes,
  randomUUID,
  verify as verifySignature,
} from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { clientAuthenticationAnonymous, type Jwk, type JwtSigner } from '@openid4vc/oauth2';
import { Openid4vciClient } from '@openid4vc/openid4vci';
import { setGlobalConfig } from '@openid4vc/utils';
import { digest } from '@sd-jwt/crypto-nodejs';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import { decodeJWT } from 'did-jwt';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey } from 'jose';
import {
  HARNESS_PUBLIC_URL,
  startDidHarness,
  type DidHarness,
  type HttpAnswer,
} from '../testing/did-harness.js';
import { newDidJwkKey, signWith } from '../testing/oid4vci-wallet.js';
import {
  TestSdJwtIssuerKeys,
  createTestSdJwtIssuerKey,
  type TestSdJwtIssuerKey,
} from '../testing/test-sd-jwt-issuer-key.js';
import { DPOP_NONCE_PERIOD_MS } from './dpop-nonces.js';
import {
  ITP_PROFILE_CONFIGURATION_ID,
  ITP_PROFILE_SD_JWT_CONFIGURATION_ID,
} from './oid4vci-issuance.js';

const ISSUER = `${HARNESS_PUBLIC_URL}/v2/did/oid4vci`;
const VCT = `${ISSUER}/vct/profile`;
const PRE_AUTHORIZED = 'urn:ietf:params:oauth:grant-type:pre-authorized_code';

/** An ES256 key pair a wallet holds (DPoP key, holder key) and its public JWK. */
interface EcKey {
  privateKey: CryptoKey;
  publicJwk: Jwk;
}

async function newEcKey(): Promise<EcKey> {
  const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
  return { privateKey, publicJwk: (await exportJWK(publicKey)) as Jwk };
}

const jwkSigner = (key: EcKey) => ({
  method: 'jwk' as const,
  alg: 'ES256',
  publicJwk: key.publicJwk,
});

/** The SHA-256 of an access token, base64url: a DPoP proof's `ath`. */
const ath = (token: string) => createHash('sha256').update(token).digest('base64url');

/** The public key of the leaf of an `x5c` chain (base64 DER, leaf first). */
function leafKeyOf(x5c: string[]) {
  return new X509Certificate(Buffer.from(x5c[0] ?? '', 'base64')).publicKey;
}

/**
 * A standard OpenID4VCI 1.0 wallet (@openid4vc/openid4vci's Openid4vciClient) that signs with the
 * key its `jwk` signers name (a DPoP key, a holder key) or its did:jwk key. Its fetch sends what is
 * addressed to PUBLIC_URL to the service.
 */
function standardWallet(serviceUrl: string, keys: EcKey[]) {
  setGlobalConfig({ allowInsecureUrls: true });
  const keyOf = (signer: JwtSigner): CryptoKey => {
    const x = signer.method === 'jwk' ? signer.publicJwk.x : undefined;
    const key = keys.find((k) => k.publicJwk.x === x) ?? keys[0];
    if (!key) throw new Error('the wallet has no key');
    return key.privateKey;
  };
  return new Openid4vciClient({
    callbacks: {
      fetch: (input, init) => {
        const url = typeof input === 'string' ? input : (input as URL | Request).toString();
        const target = url.startsWith(HARNESS_PUBLIC_URL)
          ? `${serviceUrl}${url.slice(HARNESS_PUBLIC_URL.length)}`
          : url;
        return fetch(target, init);
      },
      hash: (data, alg) =>
        new Uint8Array(createHash(alg.replace('-', '').toLowerCase()).update(data).digest()),
      generateRandom: (length) => new Uint8Array(randomBytes(length)),
      clientAuthentication: clientAuthenticationAnonymous(),
      signJwt: async (signer, { header, payload }) => ({
        jwt: await signWith(keyOf(signer), header, payload),
        signerJwk: signer.method === 'jwk' ? signer.publicJwk : ({} as Jwk),
      }),
    },
  });
}

describe('OpenID4VCI: SD-JWT VCs and DPoP (contract §15)', () => {
  let h: DidHarness;
  let issuerKey: TestSdJwtIssuerKey;
  /** Added to the real time by the service's OpenID4VCI clock (nonce periods; no sleeping). */
  let skewMs = 0;
  const serverNow = () => Date.now() + skewMs;

  const bearer = async (user: string) => ({
    authorization: `Bearer ${await h.auth.tokenFor(user)}`,
  });

  /** An offer's pre-authorized code (no tx_code) for `user` in `format`. */
  const newCode = async (format?: string, user = 'dora') => {
    const res = await h.post(
      '/v2/did/credential-offer',
      { txCode: false, userInfo: { name: 'Dora', email: 'dora@example.com' }, format },
      await bearer(user),
    );
    expect(res.status).toBe(200);
    const offerUrl = new URL(res.body.credentialOfferUri).searchParams.get('credential_offer_uri');
    const offer = await fetch(`${h.url}${new URL(offerUrl ?? '').pathname}`);
    const body = (await offer.json()) as {
      credential_configuration_ids: string[];
      grants: Record<string, { 'pre-authorized_code': string }>;
    };
    return {
      code: body.grants[PRE_AUTHORIZED]?.['pre-authorized_code'] ?? '',
      configurations: body.credential_configuration_ids,
    };
  };

  /** A DPoP proof (RFC 9449 §4.2) by `key`, with parts a test may change. */
  const dpopProof = (
    key: EcKey,
    claims: { htm?: string; htu: string; nonce?: string; ath?: string; jti?: string },
    options: { signWith?: EcKey; iat?: number } = {},
  ) =>
    new SignJWT({ htm: 'POST', jti: randomUUID(), ...claims })
      .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: key.publicJwk })
      .setIssuedAt(options.iat ?? Math.floor(serverNow() / 1000))
      .sign((options.signWith ?? key).privateKey);

  const redeem = async (code: string, dpop?: string, serviceUrl = h.url): Promise<HttpAnswer> => {
    const res = await fetch(`${serviceUrl}/v2/did/oid4vci/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(dpop ? { dpop } : {}),
      },
      body: new URLSearchParams({ grant_type: PRE_AUTHORIZED, 'pre-authorized_code': code }),
    });
    return { status: res.status, headers: res.headers, body: await res.json() };
  };

  /** The current DPoP nonce, as a wallet learns it: from a use_dpop_nonce answer. */
  const dpopNonce = async (key: EcKey) => {
    const res = await redeem('x', await dpopProof(key, { htu: `${ISSUER}/token` }));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('use_dpop_nonce');
    return res.headers.get('dpop-nonce') ?? '';
  };

  /** A DPoP-bound access token for an offer of `format`. */
  const dpopToken = async (key: EcKey, format = 'dc+sd-jwt') => {
    const { code } = await newCode(format);
    const nonce = await dpopNonce(key);
    const res = await redeem(code, await dpopProof(key, { htu: `${ISSUER}/token`, nonce }));
    expect(res.status).toBe(200);
    expect(res.body.token_type).toBe('DPoP');
    return { token: res.body.access_token as string, nonce: res.headers.get('dpop-nonce') ?? '' };
  };

  const cNonce = async () => {
    const res = await fetch(`${h.url}/v2/did/oid4vci/nonce`, { method: 'POST' });
    return ((await res.json()) as { c_nonce: string }).c_nonce;
  };

  /** A key proof with a `jwk` header (OpenID4VCI 1.0 Appendix F.1). */
  const jwkProof = async (key: EcKey, nonce: string) =>
    new SignJWT({ aud: ISSUER, nonce })
      .setProtectedHeader({ alg: 'ES256', typ: 'openid4vci-proof+jwt', jwk: key.publicJwk })
      .setIssuedAt(Math.floor(serverNow() / 1000))
      .sign(key.privateKey);

  const requestCredential = async (
    authorization: string,
    body: Record<string, unknown>,
    dpop?: string,
  ): Promise<HttpAnswer> => {
    const res = await fetch(`${h.url}/v2/did/oid4vci/credential`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization, ...(dpop ? { dpop } : {}) },
      body: JSON.stringify(body),
    });
    return { status: res.status, headers: res.headers, body: await res.json() };
  };

  const sdJwtRequest = async (holder: EcKey) => ({
    credential_configuration_id: ITP_PROFILE_SD_JWT_CONFIGURATION_ID,
    proofs: { jwt: [await jwkProof(holder, await cNonce())] },
  });

  /** A verifier of ES256 signatures by the SD-JWT issuer key (its x5c leaf). */
  const issuerVerifier = async () => {
    const key = leafKeyOf(issuerKey.x5c);
    return async (data: string, signature: string) =>
      verifySignature(
        'sha256',
        Buffer.from(data),
        { key, dsaEncoding: 'ieee-p1363' },
        Buffer.from(signature, 'base64url'),
      );
  };

  beforeAll(async () => {
    issuerKey = await createTestSdJwtIssuerKey({ publicUrl: HARNESS_PUBLIC_URL });
    h = await startDidHarness(
      { USER_STATUS_CACHE_MS: '0' },
      { now: serverNow, sdJwtIssuerKeys: new TestSdJwtIssuerKeys(issuerKey) },
    );
  });
  afterAll(() => h.close());

  it('a standard wallet with a DPoP key and a jwk proof receives an SD-JWT VC it and any verifier can check', async () => {
    const dpopKey = await newEcKey();
    const holderKey = await newEcKey();
    const wallet = standardWallet(h.url, [dpopKey, holderKey]);

    const offered = await h.post(
      '/v2/did/credential-offer',
      { format: 'dc+sd-jwt', userInfo: { name: 'Dora', email: 'dora@example.com' } },
      await bearer('dora'),
    );
    expect(offered.status).toBe(200);
    const credentialOffer = await wallet.resolveCredentialOffer(offered.body.credentialOfferUri);
    expect(credentialOffer.credential_configuration_ids).toEqual([
      ITP_PROFILE_SD_JWT_CONFIGURATION_ID,
    ]);
    const issuerMetadata = await wallet.resolveIssuerMetadata(credentialOffer.credential_issuer);
    expect(
      issuerMetadata.credentialIssuer.credential_configurations_supported[
        ITP_PROFILE_SD_JWT_CONFIGURATION_ID
      ],
    ).toMatchObject({
      format: 'dc+sd-jwt',
      vct: VCT,
      cryptographic_binding_methods_supported: expect.arrayContaining(['jwk']),
      credential_signing_alg_values_supported: ['ES256'],
      proof_types_supported: { jwt: { proof_signing_alg_values_supported: ['ES256'] } },
    });
    expect(issuerMetadata.authorizationServers[0]?.dpop_signing_alg_values_supported).toEqual([
      'ES256',
    ]);

    // No nonce at first: the service answers use_dpop_nonce, the wallet retries with it.
    const token = await wallet.retrievePreAuthorizedCodeAccessTokenFromOffer({
      credentialOffer,
      issuerMetadata,
      txCode: offered.body.txCode,
      dpop: { signer: jwkSigner(dpopKey) },
    });
    expect(token.accessTokenResponse.token_type).toBe('DPoP');
    expect(token.dpop?.nonce).toEqual(expect.any(String));

    const { c_nonce } = await wallet.requestNonce({ issuerMetadata });
    const { jwt: proofJwt } = await wallet.createCredentialRequestJwtProof({
      issuerMetadata,
      credentialConfigurationId: ITP_PROFILE_SD_JWT_CONFIGURATION_ID,
      signer: jwkSigner(holderKey),
      nonce: c_nonce,
    });
    const { credentialResponse } = await wallet.retrieveCredentials({
      issuerMetadata,
      accessToken: token.accessTokenResponse.access_token,
      credentialConfigurationId: ITP_PROFILE_SD_JWT_CONFIGURATION_ID,
      proofs: { jwt: [proofJwt] },
      dpop: {
        signer: jwkSigner(dpopKey),
        ...(token.dpop?.nonce ? { nonce: token.dpop.nonce } : {}),
      },
    });
    const sdJwt = (credentialResponse.credentials?.[0] as { credential: string }).credential;
    expect(typeof sdJwt).toBe('string');

    // The issuer-signed JWT: typ, alg, x5c; the profile claims only as disclosures.
    const issuerJwt = sdJwt.split('~')[0] ?? '';
    const { header, payload } = decodeJWT(issuerJwt);
    expect(header).toMatchObject({ typ: 'dc+sd-jwt', alg: 'ES256', x5c: issuerKey.x5c });
    expect(payload).not.toHaveProperty('name');
    expect(payload).not.toHaveProperty('email');
    expect((payload as { _sd?: unknown[] })._sd).toHaveLength(2);

    const verifier = await issuerVerifier();
    const sdJwtVc = new SDJwtVcInstance({
      hasher: digest,
      verifier,
      statusListFetcher: async (uri) => {
        const res = await fetch(`${h.url}${new URL(uri).pathname}`);
        expect(res.headers.get('content-type')).toContain('application/statuslist+jwt');
        return res.text();
      },
    });
    const verified = await sdJwtVc.verify(sdJwt);
    const now = Math.floor(Date.now() / 1000);
    expect(verified.payload).toMatchObject({
      iss: ISSUER,
      vct: VCT,
      sub: 'dora',
      name: 'Dora',
      email: 'dora@example.com',
      cnf: {
        jwk: {
          kty: 'EC',
          crv: 'P-256',
          x: holderKey.publicJwk.x,
          y: holderKey.publicJwk.y,
        },
      },
      status: {
        status_list: {
          idx: expect.any(Number),
          uri: expect.stringMatching(/^https:\/\/api\.did-harness\.test\/v2\/did\//),
        },
      },
    });
    expect(Math.abs((verified.payload.iat ?? 0) - now)).toBeLessThan(60);
    expect(verified.payload.exp).toBe((verified.payload.iat ?? 0) + h.config.VC_LIFETIME_SECONDS);

    // The account lists it, issued through OpenID4VCI to the did:jwk of the bound key.
    const listed = await h.get('/v2/did/credentials', await bearer('dora'));
    expect(listed.status).toBe(200);
    const holderDid = `did:jwk:${Buffer.from(
      JSON.stringify({
        kty: 'EC',
        crv: 'P-256',
        x: holderKey.publicJwk.x,
        y: holderKey.publicJwk.y,
      }),
    ).toString('base64url')}`;
    expect(listed.body).toContainEqual(
      expect.objectContaining({ holder: holderDid, via: 'openid4vci', status: 'valid' }),
    );
    // No secret in the log: neither the credential nor the access token.
    const logs = h.logs.join('\n');
    expect(logs).not.toContain(issuerJwt);
    expect(logs).not.toContain(token.accessTokenResponse.access_token);
  });

  it('serves the vct type metadata document at the vct', async () => {
    const res = await fetch(`${h.url}/v2/did/oid4vci/vct/profile`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await res.json()) as { vct: string; name: string; claims: unknown[] };
    expect(body).toMatchObject({ vct: VCT, name: expect.any(String) });
    expect(body.claims).toContainEqual(
      expect.objectContaining({ path: ['email'], sd: 'always', display: expect.any(Array) }),
    );
  });

  it('binds a did:jwk DID-URL proof key as cnf.jwk too', async () => {
    const didKey = await newDidJwkKey();
    const { code } = await newCode('dc+sd-jwt');
    const redeemed = await redeem(code);
    expect(redeemed.body.token_type).toBe('Bearer');
    const proof = await new SignJWT({ aud: ISSUER, nonce: await cNonce() })
      .setProtectedHeader({ alg: 'ES256', typ: 'openid4vci-proof+jwt', kid: didKey.kid })
      .setIssuedAt()
      .sign(didKey.privateKey);
    const res = await requestCredential(`Bearer ${redeemed.body.access_token}`, {
      credential_configuration_id: ITP_PROFILE_SD_JWT_CONFIGURATION_ID,
      proofs: { jwt: [proof] },
    });
    expect(res.status).toBe(200);
    const sdJwt = res.body.credentials[0].credential as string;
    const { payload } = decodeJWT(sdJwt.split('~')[0] ?? '');
    expect(payload.cnf).toEqual({
      jwk: { kty: 'EC', crv: 'P-256', x: didKey.publicJwk.x, y: didKey.publicJwk.y },
    });
  });

  describe('DPoP (RFC 9449)', () => {
    it('a DPoP-bound token is refused as Bearer (401 invalid_token) and then taken with its proof', async () => {
      const key = await newEcKey();
      const holder = await newEcKey();
      const { token, nonce } = await dpopToken(key);

      const asBearer = await requestCredential(`Bearer ${token}`, await sdJwtRequest(holder));
      expect(asBearer.status).toBe(401);
      expect(asBearer.body.error).toBe('invalid_token');
      expect(asBearer.headers.get('www-authenticate')).toMatch(/^DPoP error="invalid_token"/);

      // Without a proof, or with one by another key: refused; the token is not spent by them.
      const noProof = await requestCredential(`DPoP ${token}`, await sdJwtRequest(holder));
      expect(noProof.status).toBe(401);
      expect(noProof.body.error).toBe('invalid_dpop_proof');
      const other = await newEcKey();
      const byOther = await requestCredential(
        `DPoP ${token}`,
        await sdJwtRequest(holder),
        await dpopProof(other, { htu: `${ISSUER}/credential`, nonce, ath: ath(token) }),
      );
      expect(byOther.status).toBe(401);
      expect(byOther.body.error).toBe('invalid_dpop_proof');
      // A proof for another token (ath), or another endpoint (htu): refused.
      const wrongAth = await requestCredential(
        `DPoP ${token}`,
        await sdJwtRequest(holder),
        await dpopProof(key, { htu: `${ISSUER}/credential`, nonce, ath: ath('another') }),
      );
      expect(wrongAth.body.error).toBe('invalid_dpop_proof');
      const wrongHtu = await requestCredential(
        `DPoP ${token}`,
        await sdJwtRequest(holder),
        await dpopProof(key, { htu: `${ISSUER}/token`, nonce, ath: ath(token) }),
      );
      expect(wrongHtu.body.error).toBe('invalid_dpop_proof');
      // Signed by another key than its jwk header names.
      const forged = await requestCredential(
        `DPoP ${token}`,
        await sdJwtRequest(holder),
        await dpopProof(
          key,
          { htu: `${ISSUER}/credential`, nonce, ath: ath(token) },
          { signWith: other },
        ),
      );
      expect(forged.body.error).toBe('invalid_dpop_proof');

      const ok = await requestCredential(
        `DPoP ${token}`,
        await sdJwtRequest(holder),
        await dpopProof(key, { htu: `${ISSUER}/credential`, nonce, ath: ath(token) }),
      );
      expect(ok.status).toBe(200);
      expect(ok.headers.get('dpop-nonce')).toEqual(expect.any(String));
    });

    it('a replayed DPoP proof is refused, at the token and at the credential endpoint', async () => {
      const key = await newEcKey();
      const nonce = await dpopNonce(key);
      const tokenProof = await dpopProof(key, { htu: `${ISSUER}/token`, nonce });
      const first = await redeem((await newCode('dc+sd-jwt')).code, tokenProof);
      expect(first.status).toBe(200);
      const replayed = await redeem((await newCode('dc+sd-jwt')).code, tokenProof);
      expect(replayed.status).toBe(400);
      expect(replayed.body.error).toBe('invalid_dpop_proof');

      // At the credential endpoint: a proof spent on a refused request (no key proof) is not
      // taken again; a new one is.
      const token = first.body.access_token as string;
      const holder = await newEcKey();
      const proof = await dpopProof(key, {
        htu: `${ISSUER}/credential`,
        nonce,
        ath: ath(token),
      });
      const refused = await requestCredential(
        `DPoP ${token}`,
        { credential_configuration_id: ITP_PROFILE_SD_JWT_CONFIGURATION_ID },
        proof,
      );
      expect(refused.status).toBe(400);
      expect(refused.body.error).toBe('invalid_proof');
      const again = await requestCredential(`DPoP ${token}`, await sdJwtRequest(holder), proof);
      expect(again.status).toBe(401);
      expect(again.body.error).toBe('invalid_dpop_proof');
      const fresh = await requestCredential(
        `DPoP ${token}`,
        await sdJwtRequest(holder),
        await dpopProof(key, { htu: `${ISSUER}/credential`, nonce, ath: ath(token) }),
      );
      expect(fresh.status).toBe(200);
    });

    it('two replicas share the nonce and the one-time jti (a proof used on one is refused on the other)', async () => {
      const replica = await h.buildWith({ USER_STATUS_CACHE_MS: '0' });
      try {
        const { url: replicaUrl } = await replica.service.listen();
        const key = await newEcKey();
        const nonce = await dpopNonce(key);
        const proof = await dpopProof(key, { htu: `${ISSUER}/token`, nonce });
        const onReplica = await redeem((await newCode()).code, proof, replicaUrl);
        expect(onReplica.status).toBe(200);
        expect(onReplica.body.token_type).toBe('DPoP');
        const replayed = await redeem((await newCode()).code, proof);
        expect(replayed.status).toBe(400);
        expect(replayed.body.error).toBe('invalid_dpop_proof');
      } finally {
        await replica.service.close();
      }
    });

    it('a proof without the current nonce is answered use_dpop_nonce with a DPoP-Nonce; the retry with it works', async () => {
      const key = await newEcKey();
      // The token endpoint: no nonce → 400 use_dpop_nonce; the code is still there for the retry.
      const { code } = await newCode('dc+sd-jwt');
      const first = await redeem(code, await dpopProof(key, { htu: `${ISSUER}/token` }));
      expect(first.status).toBe(400);
      expect(first.body.error).toBe('use_dpop_nonce');
      const nonce = first.headers.get('dpop-nonce') ?? '';
      expect(nonce).toMatch(/^[A-Za-z0-9_-]{22}$/);
      const made = await redeem(code, await dpopProof(key, { htu: `${ISSUER}/token`, nonce }));
      expect(made.status).toBe(200);
      const token = made.body.access_token as string;

      // Two nonce periods later the nonce is old: the credential endpoint answers 401
      // use_dpop_nonce (WWW-Authenticate DPoP) with a new one, and keeps the c_nonce for the retry.
      skewMs += 2 * DPOP_NONCE_PERIOD_MS;
      try {
        const holder = await newEcKey();
        const request = await sdJwtRequest(holder);
        const old = await requestCredential(
          `DPoP ${token}`,
          request,
          await dpopProof(key, { htu: `${ISSUER}/credential`, nonce, ath: ath(token) }),
        );
        expect(old.status).toBe(401);
        expect(old.body.error).toBe('use_dpop_nonce');
        expect(old.headers.get('www-authenticate')).toMatch(/^DPoP error="use_dpop_nonce"/);
        const newNonce = old.headers.get('dpop-nonce') ?? '';
        expect(newNonce).not.toBe(nonce);
        const retried = await requestCredential(
          `DPoP ${token}`,
          request,
          await dpopProof(key, { htu: `${ISSUER}/credential`, nonce: newNonce, ath: ath(token) }),
        );
        expect(retried.status).toBe(200);
      } finally {
        skewMs = 0;
      }
    });

    it('refuses a DPoP proof whose iat is far from now, or signed with another alg than ES256', async () => {
      const key = await newEcKey();
      const nonce = await dpopNonce(key);
      const { code } = await newCode('dc+sd-jwt');
      const late = await redeem(
        code,
        await dpopProof(
          key,
          { htu: `${ISSUER}/token`, nonce },
          { iat: Math.floor(serverNow() / 1000) - 600 },
        ),
      );
      expect(late.status).toBe(400);
      expect(late.body.error).toBe('invalid_dpop_proof');
      const { publicKey, privateKey } = await generateKeyPair('ES384');
      const es384 = await new SignJWT({ htm: 'POST', htu: `${ISSUER}/token`, nonce, jti: 'x1' })
        .setProtectedHeader({ alg: 'ES384', typ: 'dpop+jwt', jwk: await exportJWK(publicKey) })
        .setIssuedAt()
        .sign(privateKey);
      const refused = await redeem(code, es384);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toBe('invalid_dpop_proof');
      // The code survived both: the right proof redeems it.
      const ok = await redeem(code, await dpopProof(key, { htu: `${ISSUER}/token`, nonce }));
      expect(ok.status).toBe(200);
    });

    it('jwt_vc_json wallets keep using Bearer; a DPoP scheme for a Bearer token is refused', async () => {
      const didKey = await newDidJwkKey();
      const { code, configurations } = await newCode();
      expect(configurations).toEqual([ITP_PROFILE_CONFIGURATION_ID]);
      const redeemed = await redeem(code);
      expect(redeemed.status).toBe(200);
      expect(redeemed.body.token_type).toBe('Bearer');
      const token = redeemed.body.access_token as string;
      const proof = async () =>
        new SignJWT({ aud: ISSUER, nonce: await cNonce() })
          .setProtectedHeader({ alg: 'ES256', typ: 'openid4vci-proof+jwt', kid: didKey.kid })
          .setIssuedAt()
          .sign(didKey.privateKey);
      const asDpop = await requestCredential(`DPoP ${token}`, {
        credential_configuration_id: ITP_PROFILE_CONFIGURATION_ID,
        proofs: { jwt: [await proof()] },
      });
      expect(asDpop.status).toBe(401);
      expect(asDpop.body.error).toBe('invalid_token');
      const res = await requestCredential(`Bearer ${token}`, {
        credential_configuration_id: ITP_PROFILE_CONFIGURATION_ID,
        proofs: { jwt: [await proof()] },
      });
      expect(res.status).toBe(200);
      const { payload } = decodeJWT(res.body.credentials[0].credential as string);
      expect(payload.vc.type).toEqual(['VerifiableCredential', 'Profile']);
    });
  });

  describe('bad input', () => {
    it('a token is good only for the configuration its offer named (invalid_credential_request)', async () => {
      const holder = await newEcKey();
      const sd = await redeem((await newCode('dc+sd-jwt')).code);
      const askJwtVc = await requestCredential(`Bearer ${sd.body.access_token}`, {
        credential_configuration_id: ITP_PROFILE_CONFIGURATION_ID,
        proofs: { jwt: [await jwkProof(holder, await cNonce())] },
      });
      expect(askJwtVc.status).toBe(400);
      expect(askJwtVc.body.error).toBe('invalid_credential_request');

      const jwtVc = await redeem((await newCode('jwt_vc_json')).code);
      const askSd = await requestCredential(
        `Bearer ${jwtVc.body.access_token}`,
        await sdJwtRequest(holder),
      );
      expect(askSd.status).toBe(400);
      expect(askSd.body.error).toBe('invalid_credential_request');
    });

    it('refuses an SD-JWT key proof that is not ES256, or a jwk that is no public P-256 key (invalid_proof)', async () => {
      const bearerToken = (await redeem((await newCode('dc+sd-jwt')).code)).body
        .access_token as string;
      const { publicKey, privateKey } = await generateKeyPair('ES384');
      const es384 = await new SignJWT({ aud: ISSUER, nonce: await cNonce() })
        .setProtectedHeader({
          alg: 'ES384',
          typ: 'openid4vci-proof+jwt',
          jwk: await exportJWK(publicKey),
        })
        .setIssuedAt()
        .sign(privateKey);
      const res = await requestCredential(`Bearer ${bearerToken}`, {
        credential_configuration_id: ITP_PROFILE_SD_JWT_CONFIGURATION_ID,
        proofs: { jwt: [es384] },
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_proof');

      // A private key in the header: refused, never bound.
      const holder = await newEcKey();
      const privateJwk = await exportJWK(holder.privateKey);
      const withD = await new SignJWT({ aud: ISSUER, nonce: await cNonce() })
        .setProtectedHeader({ alg: 'ES256', typ: 'openid4vci-proof+jwt', jwk: privateJwk })
        .setIssuedAt()
        .sign(holder.privateKey);
      const refused = await requestCredential(`Bearer ${bearerToken}`, {
        credential_configuration_id: ITP_PROFILE_SD_JWT_CONFIGURATION_ID,
        proofs: { jwt: [withD] },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toBe('invalid_proof');
    });

    it('credential-offer refuses an unknown format and userInfo claims an SD-JWT VC reserves (400)', async () => {
      const unknown = await h.post(
        '/v2/did/credential-offer',
        { format: 'mso_mdoc' },
        await bearer('dora'),
      );
      expect(unknown.status).toBe(400);
      expect(unknown.body.error.code).toBe('400');
      const reserved = await h.post(
        '/v2/did/credential-offer',
        { format: 'dc+sd-jwt', userInfo: { cnf: 'x' } },
        await bearer('dora'),
      );
      expect(reserved.status).toBe(400);
      expect(reserved.body.error.message).toContain('cnf');
    });
  });

  describe('without an SD-JWT issuer key', () => {
    let off: DidHarness;
    beforeAll(async () => {
      // In test mode with no key imported (and none given): SD-JWT issuance is off.
      off = await startDidHarness();
    });
    afterAll(() => off.close());

    it('lists only jwt_vc_json, refuses a dc+sd-jwt offer (400) and serves no vct document', async () => {
      const metadata = await off.get('/.well-known/openid-credential-issuer/v2/did/oid4vci');
      expect(Object.keys(metadata.body.credential_configurations_supported)).toEqual([
        ITP_PROFILE_CONFIGURATION_ID,
      ]);
      const offer = await off.post(
        '/v2/did/credential-offer',
        { format: 'dc+sd-jwt' },
        { authorization: `Bearer ${await off.auth.tokenFor('dora')}` },
      );
      expect(offer.status).toBe(400);
      expect(offer.body.error).toEqual({ code: '400', message: expect.stringContaining('SD-JWT') });
      const vct = await fetch(`${off.url}/v2/did/oid4vci/vct/profile`);
      expect(vct.status).toBe(404);
    });
  });
});
