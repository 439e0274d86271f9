/**
 * OpenID4VP 1.0 web-site login with this service's own SD-JWT VC (contract §8, §15; issue 36)
 * through the gateway: a third-party EU wallet receives the Profile SD-JWT VC over OpenID4VCI
 * (`Openid4vciClient` with DPoP and a `jwk` proof, @itp/testing/oid4vci-wallet) and answers a site's
 * login request with it (`Openid4vpClient` through @itp/wallet's resolveRequest / submitResponse,
 * the request object verified by the verifier's did:ethr on the stack's chain); `@sd-jwt/*`
 * makes the presentation with its key binding JWT. auth-service trusts the issuer's CA only as
 * did-service names it (GET /internal/v1/sd-jwt-issuer/trust-anchors).
 */
import { describe, expect, it } from '@jest/globals';
import { decodeJwt, exportJWK } from 'jose';
import type { webcrypto } from 'node:crypto';
import { openid4vpClient, resolveRequest, submitResponse } from '@itp/wallet';
import { presentTestSdJwtVc } from '@itp/presentations/testing';
import { thirdPartyResolver } from '../did-ethr.js';
import { DEMO_USER, bearerOfDemoUser } from '../flows.js';
import { post } from '../http.js';
import { newDidJwkKey, oid4vciWallet } from '@itp/testing/oid4vci-wallet';
import type { GatewayStack, Suite } from './context.js';
import { siteLogin } from './oid4vp.suite.js';

const CONFIGURATION_ID = 'itp_profile_sd_jwt';

/** The demo user's Profile SD-JWT VC in a fresh wallet (pre-authorized code, DPoP, jwk proof). */
async function issuedSdJwtVc(gw: string) {
  const holder = await newDidJwkKey({ extractable: true });
  const dpopKey = await newDidJwkKey();
  const client = oid4vciWallet(holder, { allowInsecureUrls: true, dpopKey });
  const bearer = await bearerOfDemoUser(gw);
  const offer = await post(
    `${gw}/v2/did/credential-offer`,
    { format: 'dc+sd-jwt', userInfo: { name: DEMO_USER.name } },
    bearer,
  );
  expect(offer.status).toBe(200);
  const { credentialOfferUri, txCode } = offer.body as {
    credentialOfferUri: string;
    txCode: string;
  };
  const credentialOffer = await client.resolveCredentialOffer(credentialOfferUri);
  const issuerMetadata = await client.resolveIssuerMetadata(credentialOffer.credential_issuer);
  const dpopSigner = { method: 'jwk', alg: 'ES256', publicJwk: dpopKey.publicJwk } as const;
  const { accessTokenResponse, dpop } = await client.retrievePreAuthorizedCodeAccessTokenFromOffer({
    credentialOffer,
    issuerMetadata,
    txCode,
    dpop: { signer: dpopSigner },
  });
  const { c_nonce } = await client.requestNonce({ issuerMetadata });
  const { jwt: proof } = await client.createCredentialRequestJwtProof({
    issuerMetadata,
    credentialConfigurationId: CONFIGURATION_ID,
    signer: { method: 'jwk', alg: 'ES256', publicJwk: holder.publicJwk },
    nonce: c_nonce,
  });
  const { credentialResponse } = await client.retrieveCredentials({
    issuerMetadata,
    accessToken: accessTokenResponse.access_token,
    credentialConfigurationId: CONFIGURATION_ID,
    proofs: { jwt: [proof] },
    ...(dpop ? { dpop } : {}),
  });
  const [issued] = (credentialResponse.credentials ?? []) as Array<{ credential: string }>;
  expect(issued).toBeDefined();
  return {
    sdJwt: issued!.credential,
    holderPrivateJwk: (await exportJWK(holder.privateKey)) as webcrypto.JsonWebKey,
    bearer,
  };
}

/** The wallet answers the site's login QR code with the SD-JWT VC (the `itp_sd_jwt` option). */
async function answerLogin(
  stack: GatewayStack,
  openid4vpUri: string,
  wallet: Awaited<ReturnType<typeof issuedSdJwtVc>>,
) {
  const client = await openid4vpClient({ resolver: thirdPartyResolver(stack) });
  const resolved = await resolveRequest(client, openid4vpUri, { allowInsecureUrls: true });
  // The request offers this credential as one of its two options (credential_sets).
  const sdJwtQuery = resolved.dcqlQuery.credentials.find((q) => q.format === 'dc+sd-jwt');
  const { vct } = decodeJwt(wallet.sdJwt.split('~')[0]!);
  expect(sdJwtQuery).toMatchObject({ id: 'itp_sd_jwt', meta: { vct_values: [vct] } });
  const presentation = await presentTestSdJwtVc(wallet.sdJwt, {
    holderPrivateJwk: wallet.holderPrivateJwk,
    disclose: [],
    nonce: resolved.nonce,
    audience: resolved.clientId,
  });
  return submitResponse(client, resolved.request, { [sdJwtQuery!.id]: [presentation] });
}

/**
 * /v2/auth/oid4vp through the gateway with the SD-JWT VC this service issued: it logs the demo
 * user in; once revoked (revoke-vc { sdJwt }) it does not.
 */
export const sdJwtLoginSuite: Suite = ({ stack }) => {
  describe('OpenID4VP login with this service’s own SD-JWT VC through the gateway', () => {
    it('the SD-JWT VC issued to a third-party wallet logs the demo user in to a site; once revoked it is refused', async () => {
      const gw = stack().gatewayUrl;
      const wallet = await issuedSdJwtVc(gw);

      const login = await siteLogin(gw, 'sd-jwt-login');
      const answer = await answerLogin(stack(), login.openid4vpUri, wallet);
      expect(answer).toMatchObject({ status: 200, body: {} });
      const result = await login.poll();
      expect(result.status).toBe(200);
      expect(result.body).toMatchObject({ userId: DEMO_USER.id, token: expect.any(String) });

      const revoked = await post(`${gw}/v2/did/revoke-vc`, { sdJwt: wallet.sdJwt }, wallet.bearer);
      expect(revoked.status).toBe(200);
      const again = await siteLogin(gw, 'sd-jwt-login-revoked');
      const refused = await answerLogin(stack(), again.openid4vpUri, wallet);
      expect(refused).toMatchObject({ status: 400, body: { error: 'access_denied' } });
      expect((await again.poll()).status).toBe(401);
    }, 120_000);
  });
};
