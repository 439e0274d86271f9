/**
 * OpenID4VCI 1.0 (pre-authorized code) through the gateway, into a third-party wallet that then
 * logs the user in with it (issue 23's end-to-end proof): the wallet holds its own did:jwk key
 * (P-256, jose), receives a credential with the OpenWallet Foundation's `Openid4vciClient`
 * (@itp/testing/oid4vci-wallet), a third party verifies it with did-jwt-vc, and the same key and VC
 * answer a site's OpenID4VP login with `Openid4vpClient` (@itp/wallet's `Oid4vpWallet`) — until
 * the user revokes the VC.
 */
import { describe, expect, it } from '@jest/globals';
import { decodeJWT } from 'did-jwt';
import { verifyCredential } from 'did-jwt-vc';
import { Oid4vpWallet } from '@itp/wallet';
import { thirdPartyResolver } from '../did-ethr.js';
import { DEMO_USER, bearerOfDemoUser } from '../flows.js';
import { getJson, post, type Json } from '../http.js';
import { newDidJwkKey, oid4vciWallet } from '@itp/testing/oid4vci-wallet';
import type { Suite } from './context.js';
import { expectRefusal, siteLogin } from './oid4vp.suite.js';

const PRE_AUTHORIZED = 'urn:ietf:params:oauth:grant-type:pre-authorized_code';
const CONFIGURATION_ID = 'itp_profile_jwt_vc_json';
const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * /v2/did/credential-offer and /v2/did/oid4vci/* through the gateway: OpenID4VCI 1.0
 * (pre-authorized code, tx_code) into a third-party did:jwk wallet; that wallet's OpenID4VP
 * login, refused once the VC is revoked.
 */
export const oid4vciSuite: Suite = ({ stack }) => {
  describe('OpenID4VCI 1.0 issuance through the gateway into a third-party did:jwk wallet', () => {
    it('the wallet receives a VC for the demo user, logs the user in with it through OpenID4VP, and not once it is revoked', async () => {
      const gw = stack().gatewayUrl;
      const issuerUrl = `${gw}/v2/did/oid4vci`;
      const resolver = thirdPartyResolver(stack());
      const bearer = await bearerOfDemoUser(gw);
      const key = await newDidJwkKey();
      const wallet = oid4vciWallet(key, { allowInsecureUrls: true });

      // The user's app asks for an offer; it comes with a transaction code (the default) that the
      // user types into the wallet.
      const offered = await post(
        `${gw}/v2/did/credential-offer`,
        { userInfo: { name: DEMO_USER.name } },
        bearer,
      );
      expect(offered.status).toBe(200);
      expect(offered.body).toEqual({
        credentialOfferUri: expect.stringMatching(
          /^openid-credential-offer:\/\/\?credential_offer_uri=/,
        ),
        txCode: expect.stringMatching(/^[0-9]{6}$/),
        expiresInSeconds: 300,
      });
      const { credentialOfferUri, txCode } = offered.body as {
        credentialOfferUri: string;
        txCode: string;
      };
      const offerUrl = new URL(credentialOfferUri).searchParams.get('credential_offer_uri')!;
      expect(offerUrl).toMatch(new RegExp(`^${escapeRegExp(issuerUrl)}/offer/[A-Za-z0-9_-]{43}$`));

      // The wallet resolves the offer (through the gateway), then the issuer's metadata.
      const credentialOffer = await wallet.resolveCredentialOffer(credentialOfferUri);
      expect(credentialOffer).toEqual({
        credential_issuer: issuerUrl,
        credential_configuration_ids: [CONFIGURATION_ID],
        grants: {
          [PRE_AUTHORIZED]: {
            'pre-authorized_code': expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
            tx_code: expect.objectContaining({ input_mode: 'numeric', length: 6 }),
          },
        },
      });
      expect(JSON.stringify(credentialOffer)).not.toContain(txCode);
      // The offer is served once.
      expect((await fetch(offerUrl)).status).toBe(404);

      const issuerMetadata = await wallet.resolveIssuerMetadata(credentialOffer.credential_issuer);
      expect(issuerMetadata.credentialIssuer).toMatchObject({
        credential_issuer: issuerUrl,
        credential_endpoint: `${issuerUrl}/credential`,
        nonce_endpoint: `${issuerUrl}/nonce`,
        credential_configurations_supported: {
          [CONFIGURATION_ID]: {
            format: 'jwt_vc_json',
            credential_definition: { type: ['VerifiableCredential', 'Profile'] },
            cryptographic_binding_methods_supported: expect.arrayContaining(['did:jwk']),
          },
        },
      });
      expect(issuerMetadata.authorizationServers[0]).toMatchObject({
        issuer: issuerUrl,
        token_endpoint: `${issuerUrl}/token`,
      });

      // The code redeemed with the tx_code; a nonce; the proof of possession of the did:jwk key.
      const { accessTokenResponse } = await wallet.retrievePreAuthorizedCodeAccessTokenFromOffer({
        credentialOffer,
        issuerMetadata,
        txCode,
      });
      expect(accessTokenResponse).toMatchObject({ token_type: 'Bearer', expires_in: 300 });
      const { c_nonce } = await wallet.requestNonce({ issuerMetadata });
      const { jwt: proofJwt } = await wallet.createCredentialRequestJwtProof({
        issuerMetadata,
        credentialConfigurationId: CONFIGURATION_ID,
        signer: { method: 'did', didUrl: key.kid, alg: 'ES256' },
        nonce: c_nonce,
      });
      expect(decodeJWT(proofJwt)).toMatchObject({
        header: { typ: 'openid4vci-proof+jwt', alg: 'ES256', kid: key.kid },
        payload: { aud: issuerUrl, nonce: c_nonce },
      });
      const { credentialResponse } = await wallet.retrieveCredentials({
        issuerMetadata,
        accessToken: accessTokenResponse.access_token,
        credentialConfigurationId: CONFIGURATION_ID,
        proofs: { jwt: [proofJwt] },
      });
      const credentials = (credentialResponse.credentials ?? []) as Array<{ credential: string }>;
      expect(credentials).toHaveLength(1);
      const vcJwt = credentials[0]!.credential;

      // A third party verifies the VC (did-jwt-vc, ethr-did-resolver on the stack's chain).
      const verified = await verifyCredential(vcJwt, resolver);
      const issuers = (await getJson(`${gw}/v2/did/issuers`)) as Json[];
      expect(verified.issuer).toBe(issuers[0].did);
      expect(verified.payload.sub).toBe(key.did);
      expect(verified.verifiableCredential.type).toEqual(['VerifiableCredential', 'Profile']);
      expect(verified.verifiableCredential.credentialSubject).toMatchObject({
        id: key.did,
        sub: DEMO_USER.id,
        name: DEMO_USER.name,
      });
      expect(verified.verifiableCredential.credentialStatus).toMatchObject({
        type: 'BitstringStatusListEntry',
        statusPurpose: 'revocation',
      });

      // The same wallet (its did:jwk key, this VC) logs the demo user in to a site (OpenID4VP).
      const vpWallet = new Oid4vpWallet({
        resolver,
        holder: { did: key.did, kid: key.kid, privateKey: key.privateKey },
        allowInsecureUrls: true,
      });
      const login = await siteLogin(gw, 'oid4vci-login');
      expect((await login.poll()).status).toBe(401);
      const resolved = await vpWallet.resolve(login.openid4vpUri);
      const { queryId, vcJwt: chosen } = vpWallet.select(resolved, [vcJwt]);
      expect(chosen).toBe(vcJwt);
      const vp = await vpWallet.presentation(resolved, chosen);
      expect(decodeJWT(vp)).toMatchObject({
        header: { alg: 'ES256', kid: key.kid },
        payload: { iss: key.did, aud: resolved.clientId, nonce: resolved.nonce },
      });
      const answer = await vpWallet.submit(resolved, queryId, vp);
      expect(answer).toEqual({
        status: 200,
        contentType: expect.stringMatching(/^application\/json\b/),
        body: {},
      });
      const result = await login.poll();
      expect(result.status).toBe(200);
      expect(result.body).toMatchObject({ userId: DEMO_USER.id, token: expect.any(String) });

      // The user revokes the VC; the same wallet's next login is refused, the site gets none.
      const revoked = await post(`${gw}/v2/did/revoke-vc`, { jwt: vcJwt }, bearer);
      expect(revoked.status).toBe(200);
      expect(revoked.body).toMatchObject({ revoked: true });
      const refusedLogin = await siteLogin(gw, 'oid4vci-revoked');
      const { answer: refused } = await vpWallet.logIn(refusedLogin.openid4vpUri, [vcJwt]);
      expectRefusal(refused, 'access_denied');
      const poll = await refusedLogin.poll();
      expect(poll.status).toBe(401);
      expect(poll.body.error.code).toBe('401');
    }, 120_000);
  });
};
