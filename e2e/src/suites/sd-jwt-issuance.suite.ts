/**
 * SD-JWT VCs into an EU wallet (contract §15, issue 36) through the gateway, with the other
 * side's maintained libraries only: the wallet is `Openid4vciClient` (@openid4vc/openid4vci,
 * @itp/testing/oid4vci-wallet) with a DPoP key and a `jwk` proof; `@sd-jwt/sd-jwt-vc` verifies what it
 * receives (the x5c chain to the CA the issuer serves, ../sd-jwt-vc-checks.ts) and presents one
 * of three claims with a key binding JWT; `@sd-jwt/jwt-status-list` reads the credential's bit;
 * the site's verifier (contract §14: presentation requests) is answered by `Openid4vpClient`
 * (@openid4vc/openid4vp, @itp/presentations/testing's testWallet) direct_post.jwt. Nothing of the platform's
 * code runs on the wallet's side.
 */
import { describe, expect, it } from '@jest/globals';
import { decodeJwt, decodeProtectedHeader, exportJWK } from 'jose';
import type { Jwk } from '@openid4vc/oauth2';
import type { IssuerMetadataResult, Openid4vciClient } from '@openid4vc/openid4vci';
import type { webcrypto } from 'node:crypto';
import { setGlobalConfig } from '@openid4vc/utils';
import { presentTestSdJwtVc, testWallet } from '@itp/presentations/testing';
import { DEMO_SITE, DEMO_USER, bearerOfDemoUser } from '../flows.js';
import { basicAuth, post, type Json } from '../http.js';
import { newDidJwkKey, oid4vciWallet, type DidJwkKey } from '@itp/testing/oid4vci-wallet';
import { tokenStatus, verifyIssuedSdJwtVc } from '../sd-jwt-vc-checks.js';
import type { Suite } from './context.js';

const CONFIGURATION_ID = 'itp_profile_sd_jwt';
/** The three profile claims the credential carries, each selectively disclosable. */
const PROFILE = { name: DEMO_USER.name, email: 'demo@example.com', nickname: 'demo' } as const;
const site = { authorization: basicAuth(DEMO_SITE.id, DEMO_SITE.secret) };

async function getText(url: string): Promise<{ type: string; text: string }> {
  const res = await fetch(url);
  if (res.status !== 200) throw new Error(`GET ${url}: HTTP ${res.status}`);
  return { type: res.headers.get('content-type') ?? '', text: await res.text() };
}

const publicPart = ({ kty, crv, x, y }: Jwk) => ({ kty, crv, x, y });
const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A wallet: its holder key (bound as cnf.jwk), its DPoP key, the library, what it sent. */
interface EudiWallet {
  holder: DidJwkKey;
  holderPrivateJwk: webcrypto.JsonWebKey;
  dpopKey: DidJwkKey;
  client: Openid4vciClient;
  /** The DPoP header of every request the library sent, by URL, in order. */
  dpopProofs: Array<{ url: string; proof: string }>;
}

async function newEudiWallet(): Promise<EudiWallet> {
  const holder = await newDidJwkKey({ extractable: true });
  const dpopKey = await newDidJwkKey();
  const dpopProofs: EudiWallet['dpopProofs'] = [];
  const recording: typeof fetch = (input, init) => {
    const proof = new Headers(init?.headers).get('dpop');
    if (proof)
      dpopProofs.push({ url: String(input instanceof Request ? input.url : input), proof });
    return fetch(input, init);
  };
  return {
    holder,
    holderPrivateJwk: (await exportJWK(holder.privateKey)) as webcrypto.JsonWebKey,
    dpopKey,
    client: oid4vciWallet(holder, { allowInsecureUrls: true, dpopKey, fetch: recording }),
    dpopProofs,
  };
}

const dpopSigner = (wallet: EudiWallet) =>
  ({ method: 'jwk', alg: 'ES256', publicJwk: wallet.dpopKey.publicJwk }) as const;
const jwkSigner = (wallet: EudiWallet) =>
  ({ method: 'jwk', alg: 'ES256', publicJwk: wallet.holder.publicJwk }) as const;

/** The user's app asks for a dc+sd-jwt offer; the wallet resolves it and the issuer's metadata. */
async function offered(gw: string, wallet: EudiWallet) {
  const bearer = await bearerOfDemoUser(gw);
  const offer = await post(
    `${gw}/v2/did/credential-offer`,
    { format: 'dc+sd-jwt', userInfo: PROFILE },
    bearer,
  );
  expect(offer.status).toBe(200);
  const { credentialOfferUri, txCode } = offer.body as {
    credentialOfferUri: string;
    txCode: string;
  };
  const credentialOffer = await wallet.client.resolveCredentialOffer(credentialOfferUri);
  expect(credentialOffer.credential_configuration_ids).toEqual([CONFIGURATION_ID]);
  const issuerMetadata = await wallet.client.resolveIssuerMetadata(
    credentialOffer.credential_issuer,
  );
  return { bearer, credentialOffer, issuerMetadata, txCode };
}

/** The pre-authorized code redeemed with a DPoP proof: a DPoP-bound token and the next nonce. */
async function dpopBoundToken(
  wallet: EudiWallet,
  { credentialOffer, issuerMetadata, txCode }: Awaited<ReturnType<typeof offered>>,
) {
  const { accessTokenResponse, dpop } =
    await wallet.client.retrievePreAuthorizedCodeAccessTokenFromOffer({
      credentialOffer,
      issuerMetadata,
      txCode,
      dpop: { signer: dpopSigner(wallet) },
    });
  expect(accessTokenResponse.token_type).toBe('DPoP');
  expect(dpop?.nonce).toEqual(expect.any(String));
  return { accessToken: accessTokenResponse.access_token, dpop: dpop! };
}

/** A fresh c_nonce and a `jwk` proof of the holder key with it. */
async function jwkProof(wallet: EudiWallet, issuerMetadata: IssuerMetadataResult) {
  const { c_nonce } = await wallet.client.requestNonce({ issuerMetadata });
  const { jwt } = await wallet.client.createCredentialRequestJwtProof({
    issuerMetadata,
    credentialConfigurationId: CONFIGURATION_ID,
    signer: jwkSigner(wallet),
    nonce: c_nonce,
  });
  return jwt;
}

/**
 * /v2/did/credential-offer `{ format: 'dc+sd-jwt' }` and /v2/did/oid4vci/* through the gateway:
 * an SD-JWT VC (x5c-signed, each profile claim disclosable, token status list) into a
 * third-party EU wallet with DPoP and a jwk proof; one disclosed claim verified by a site's
 * presentation request; revoked with revoke-vc { sdJwt }: its bit 1 and refused; DPoP-bound
 * tokens refused as Bearer, replayed DPoP proofs refused.
 */
export const sdJwtIssuanceSuite: Suite = ({ stack }) => {
  describe('SD-JWT VC issuance (OpenID4VCI 1.0, HAIP) through the gateway into a third-party EU wallet', () => {
    it('the wallet receives an SD-JWT VC (DPoP, jwk proof) that a third party verifies; the site’s verifier gets exactly the one disclosed claim; once revoked its bit is 1 and it is refused', async () => {
      const gw = stack().gatewayUrl;
      const issuerUrl = `${gw}/v2/did/oid4vci`;
      const vct = `${issuerUrl}/vct/profile`;
      const wallet = await newEudiWallet();
      const offer = await offered(gw, wallet);

      // The issuer's metadata: the dc+sd-jwt configuration, DPoP at its authorization server.
      expect(offer.issuerMetadata.credentialIssuer).toMatchObject({
        credential_issuer: issuerUrl,
        nonce_endpoint: `${issuerUrl}/nonce`,
        credential_configurations_supported: {
          [CONFIGURATION_ID]: {
            format: 'dc+sd-jwt',
            vct,
            cryptographic_binding_methods_supported: expect.arrayContaining(['jwk']),
            credential_signing_alg_values_supported: expect.arrayContaining(['ES256']),
          },
        },
      });
      expect(offer.issuerMetadata.authorizationServers[0]).toMatchObject({
        dpop_signing_alg_values_supported: expect.arrayContaining(['ES256']),
      });
      // The type metadata is served at the vct URL.
      const typeMetadata = JSON.parse((await getText(vct)).text) as Json;
      expect(typeMetadata.vct).toBe(vct);

      // The code redeemed with a DPoP proof; the credential asked for with a jwk proof and DPoP.
      const { accessToken, dpop } = await dpopBoundToken(wallet, offer);
      const proofJwt = await jwkProof(wallet, offer.issuerMetadata);
      expect(decodeProtectedHeader(proofJwt)).toMatchObject({
        typ: 'openid4vci-proof+jwt',
        alg: 'ES256',
        jwk: publicPart(wallet.holder.publicJwk),
      });
      const { credentialResponse } = await wallet.client.retrieveCredentials({
        issuerMetadata: offer.issuerMetadata,
        accessToken,
        credentialConfigurationId: CONFIGURATION_ID,
        proofs: { jwt: [proofJwt] },
        dpop,
      });
      expect(wallet.dpopProofs.map((p) => p.url)).toEqual(
        expect.arrayContaining([`${issuerUrl}/token`, `${issuerUrl}/credential`]),
      );
      const credentials = (credentialResponse.credentials ?? []) as Array<{ credential: string }>;
      expect(credentials).toHaveLength(1);
      const sdJwt = credentials[0]!.credential;
      expect(sdJwt).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+(~[\w-]+){3}~$/);

      // The wallet verifies it: x5c chain to the CA the issuer serves, signature, disclosures,
      // vct, cnf.jwk its own key, the token status list (fetched and checked) saying 0.
      const issuerCa = await getText(`${gw}/v2/did/oid4vci/issuer-ca.pem`);
      expect(issuerCa.text).toMatch(/^-----BEGIN CERTIFICATE-----/);
      const verified = await verifyIssuedSdJwtVc(sdJwt, issuerCa.text);
      expect(verified.header).toMatchObject({ typ: 'dc+sd-jwt', alg: 'ES256' });
      expect(verified.payload).toMatchObject({
        ...PROFILE,
        iss: issuerUrl,
        vct,
        sub: DEMO_USER.id,
        iat: expect.any(Number),
        cnf: { jwk: publicPart(wallet.holder.publicJwk) },
        status: {
          status_list: {
            idx: expect.any(Number),
            uri: expect.stringMatching(
              new RegExp(`^${escapeRegExp(gw)}/v2/did/token-status-lists/[\\w-]+$`),
            ),
          },
        },
      });
      // Only the profile claims are disclosures: the signed JWT shows none of them.
      const signed = decodeJwt(sdJwt.split('~')[0]!);
      for (const claim of Object.keys(PROFILE)) expect(signed).not.toHaveProperty(claim);
      expect(signed._sd).toHaveLength(3);
      const status = verified.payload.status!.status_list;
      expect(await tokenStatus(status, verified.signer)).toBe(0);

      // A site asks the verifier (contract §14) for one claim of this type; the wallet trusts the
      // request object's x5c chain to the verifier CA and discloses only that claim.
      const verifierCaPem = (await getText(`${gw}/v2/auth/oid4vp/verifier-ca.pem`)).text;
      setGlobalConfig({ allowInsecureUrls: true }); // the stack serves plain HTTP on loopback
      const vpWallet = testWallet({ verifierCaPem, publicUrl: gw, serviceUrl: gw });
      const ask = async () => {
        const created = await post(
          `${gw}/v2/auth/presentation-requests`,
          {
            dcql_query: {
              credentials: [
                {
                  id: 'profile',
                  format: 'dc+sd-jwt',
                  meta: { vct_values: [vct] },
                  claims: [{ path: ['email'] }],
                },
              ],
            },
          },
          site,
        );
        expect(created.status).toBe(200);
        const { requestId, openid4vpUri } = created.body as {
          requestId: string;
          openid4vpUri: string;
        };
        const resolved = await vpWallet.resolve(openid4vpUri);
        const request = resolved.authorizationRequestPayload;
        expect(request).toMatchObject({
          client_id: `x509_san_dns:${new URL(gw).hostname}`,
          response_mode: 'direct_post.jwt',
        });
        const presentation = await presentTestSdJwtVc(sdJwt, {
          holderPrivateJwk: wallet.holderPrivateJwk,
          disclose: ['email'],
          nonce: String(request.nonce),
          audience: String(request.client_id),
        });
        // The issuer JWT, one disclosure, the key binding JWT.
        expect(presentation.split('~')).toHaveLength(3);
        const { status, body } = await vpWallet.answer(resolved, { profile: [presentation] });
        const answer = { status, body };
        const result = await post(
          `${gw}/v2/auth/presentation-requests/result`,
          { requestId },
          site,
        );
        return { answer, result };
      };
      const accepted = await ask();
      expect(accepted.answer).toEqual({ status: 200, body: {} });
      expect(accepted.result.status).toBe(200);
      expect(accepted.result.body).toEqual({
        status: 'verified',
        credentials: {
          profile: [
            {
              format: 'dc+sd-jwt',
              issuer: issuerUrl,
              claims: { email: PROFILE.email },
              status: 'valid',
            },
          ],
        },
      });

      // The user revokes the SD-JWT VC as the wallet holds it; its bit is now 1.
      const revoked = await post(`${gw}/v2/did/revoke-vc`, { sdJwt }, offer.bearer);
      expect(revoked.status).toBe(200);
      expect(revoked.body).toEqual({
        revoked: true,
        statusListCredential: status.uri,
        statusListIndex: String(status.idx),
      });
      expect(await tokenStatus(status, verified.signer)).toBe(1);
      await expect(verifyIssuedSdJwtVc(sdJwt, issuerCa.text)).rejects.toThrow(/status/i);

      // A presentation of the revoked credential is refused; the site learns why.
      const refused = await ask();
      expect(refused.answer).toMatchObject({ status: 400, body: { error: 'access_denied' } });
      expect(refused.result.body).toEqual({
        status: 'refused',
        error: 'access_denied',
        rule: 'revoked',
      });
    }, 120_000);

    it('refuses a DPoP-bound access token sent as Bearer and a replayed DPoP proof (401); a fresh proof then gets the credential', async () => {
      const gw = stack().gatewayUrl;
      const credentialEndpoint = `${gw}/v2/did/oid4vci/credential`;
      const wallet = await newEudiWallet();
      const offer = await offered(gw, wallet);
      const { accessToken, dpop } = await dpopBoundToken(wallet, offer);
      const credentialRequest = async () => ({
        credential_configuration_id: CONFIGURATION_ID,
        proofs: { jwt: [await jwkProof(wallet, offer.issuerMetadata)] },
      });

      // The token as a Bearer token (someone who stole it but not the DPoP key): refused.
      const asBearer = await post(credentialEndpoint, await credentialRequest(), {
        authorization: `Bearer ${accessToken}`,
      });
      expect(asBearer.status).toBe(401);
      expect(asBearer.body).toMatchObject({ error: 'invalid_token' });
      expect(asBearer.headers.get('www-authenticate')).toMatch(/^DPoP\b/);

      // A request with a valid DPoP proof but an unknown c_nonce: refused after the proof was
      // checked (so its jti is spent), the token not spent.
      const stale = await wallet.client
        .createCredentialRequestJwtProof({
          issuerMetadata: offer.issuerMetadata,
          credentialConfigurationId: CONFIGURATION_ID,
          signer: jwkSigner(wallet),
          nonce: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
        })
        .then(({ jwt }) => jwt);
      const sent = wallet.dpopProofs.length;
      await expect(
        wallet.client.retrieveCredentials({
          issuerMetadata: offer.issuerMetadata,
          accessToken,
          credentialConfigurationId: CONFIGURATION_ID,
          proofs: { jwt: [stale] },
          dpop,
        }),
      ).rejects.toThrow();
      const used = wallet.dpopProofs.slice(sent).filter((p) => p.url === credentialEndpoint);
      expect(used).toHaveLength(1);

      // That DPoP proof replayed with a good request: refused as used before.
      const replayed = await post(credentialEndpoint, await credentialRequest(), {
        authorization: `DPoP ${accessToken}`,
        dpop: used[0]!.proof,
      });
      expect(replayed.status).toBe(401);
      expect(replayed.body).toMatchObject({ error: 'invalid_dpop_proof' });
      expect(replayed.headers.get('www-authenticate')).toMatch(/^DPoP\b/);

      // The wallet's own next request (a fresh DPoP proof) gets the credential.
      const { credentialResponse } = await wallet.client.retrieveCredentials({
        issuerMetadata: offer.issuerMetadata,
        accessToken,
        credentialConfigurationId: CONFIGURATION_ID,
        proofs: { jwt: [await jwkProof(wallet, offer.issuerMetadata)] },
        dpop,
      });
      expect(credentialResponse.credentials).toHaveLength(1);
    }, 120_000);
  });
};
