/**
 * Presentation requests (docs/api.md §14: OpenID4VP 1.0 with the HAIP profile) through the
 * gateway, on every setup: a site asks for an EUDI PID (SD-JWT VC and mdoc) or this service's own
 * VC; the wallet is the OpenWallet Foundation's `Openid4vpClient` (@itp/presentations/testing's
 * testWallet: it verifies the request object's x5c chain against the dev CA the stack serves, and
 * encrypts its answer), the PID's issuer a test PID provider whose CA the stack trusts
 * (TRUSTED_ISSUER_CERTIFICATES, gateway-setup.ts), its credentials made with the other side's
 * libraries (@sd-jwt/*, @owf/mdoc). Every call goes through the gateway, which balances the
 * replicas: with two, the request is made, fetched, answered and polled on either.
 */
// @peculiar/x509 (through @itp/x509 and @itp/presentations/testing) needs it first.
import 'reflect-metadata';
import type { webcrypto } from 'node:crypto';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from 'jose';
import { setGlobalConfig } from '@openid4vc/utils';
import {
  issueTestMdoc,
  issueTestSdJwtVc,
  presentTestMdoc,
  presentTestSdJwtVc,
  testWallet,
} from '@itp/presentations/testing';
import type { ResolvedLoginRequest } from '@itp/wallet';
import { createCa, issueLeaf } from '@itp/x509';
import { DEMO_SITE, DEMO_USER } from '../flows.js';
import { basicAuth, getJson, post, type Json } from '../http.js';
import type { Suite } from './context.js';
import { ownHolder } from './oid4vp.suite.js';

const site = { authorization: basicAuth(DEMO_SITE.id, DEMO_SITE.secret) };
const PID_VCT = 'urn:eudi:pid:1';
const PID_NS = 'eu.europa.ec.eudi.pid.1';
/** "Over 18": from the PID as an SD-JWT VC and as an mdoc. */
const AGE_QUERY = {
  credentials: [
    {
      id: 'pid',
      format: 'dc+sd-jwt',
      meta: { vct_values: [PID_VCT] },
      claims: [{ path: ['age_over_18'] }],
    },
    {
      id: 'pid_mdoc',
      format: 'mso_mdoc',
      meta: { doctype_value: PID_NS },
      claims: [{ path: [PID_NS, 'age_over_18'] }],
    },
  ],
};
const PID_CLAIMS = {
  given_name: 'Erika',
  family_name: 'Mustermann',
  birthdate: '1964-08-12',
  age_over_18: true,
};

interface KeyPair {
  publicJwk: webcrypto.JsonWebKey;
  privateJwk: webcrypto.JsonWebKey;
}

async function keyPair(): Promise<KeyPair> {
  const keys = await generateKeyPair('ES256', { extractable: true });
  return {
    publicJwk: (await exportJWK(keys.publicKey)) as webcrypto.JsonWebKey,
    privateJwk: (await exportJWK(keys.privateKey)) as webcrypto.JsonWebKey,
  };
}

/**
 * A site's presentation request answered by a third-party wallet, through the gateway: the x5c
 * request object verified against the served dev CA, an encrypted answer disclosing only
 * age_over_18 of a PID (SD-JWT VC and mdoc), the site's outcome holding exactly that, once; an
 * untrusted issuer refused with its rule; this service's own VC (jwt_vc_json) answered with only
 * the credentialSubject claims asked for.
 */
export const presentationRequestsSuite: Suite = ({ stack }) => {
  describe('presentation requests: a site verifies what an EUDI wallet presents (OpenID4VP 1.0, HAIP)', () => {
    let verifierCaPem: string;
    let holder: KeyPair;
    const gw = () => stack().gatewayUrl;
    const wallet = () =>
      // PUBLIC_URL is the gateway's address (http://localhost:<port>): nothing to rewrite.
      testWallet({ verifierCaPem, publicUrl: gw(), serviceUrl: gw() });
    const create = async (dcqlQuery: unknown) => {
      const res = await post(
        `${gw()}/v2/auth/presentation-requests`,
        { dcql_query: dcqlQuery },
        site,
      );
      expect({ status: res.status, body: res.body }).toMatchObject({ status: 200 });
      return res.body as { requestId: string; openid4vpUri: string };
    };
    const result = (requestId: string) =>
      post(`${gw()}/v2/auth/presentation-requests/result`, { requestId }, site);
    /** The thumbprint the mdoc session transcript binds: of the key the response is encrypted to. */
    const thumbprintOf = async (jwks: unknown) => {
      const [key] = (jwks as { keys: JWK[] }).keys;
      return new Uint8Array(
        Buffer.from(await calculateJwkThumbprint(key as JWK, 'sha256'), 'base64url'),
      );
    };

    beforeAll(async () => {
      setGlobalConfig({ allowInsecureUrls: true }); // the stack serves plain HTTP on loopback
      holder = await keyPair();
    });

    it('serves the dev verifier CA that the request objects’ x5c chains end in', async () => {
      const res = await fetch(`${gw()}/v2/auth/oid4vp/verifier-ca.pem`);
      expect(res.status).toBe(200);
      verifierCaPem = await res.text();
      expect(verifierCaPem).toMatch(/^-----BEGIN CERTIFICATE-----/);
    });

    it('the wallet discloses only age_over_18 of its PID (SD-JWT VC and mdoc), encrypted; the site gets exactly that, once', async () => {
      const { requestId, openid4vpUri } = await create(AGE_QUERY);
      // Pending on every replica the gateway picks.
      for (let i = 0; i < 3; i += 1) expect((await result(requestId)).status).toBe(401);

      const client = wallet();
      const resolved = await client.resolve(openid4vpUri);
      const request = resolved.authorizationRequestPayload;
      const clientId = `x509_san_dns:${new URL(gw()).hostname}`;
      expect(request).toMatchObject({
        client_id: clientId,
        response_mode: 'direct_post.jwt',
        client_metadata: {
          vp_formats_supported: {
            'dc+sd-jwt': { 'sd-jwt_alg_values': ['ES256'], 'kb-jwt_alg_values': ['ES256'] },
            mso_mdoc: { issuerauth_alg_values: [-7], deviceauth_alg_values: [-7] },
          },
        },
      });
      const { signer } = stack().pidIssuer;
      const sdJwtVc = await issueTestSdJwtVc({
        issuer: signer,
        holderPublicJwk: holder.publicJwk,
        vct: PID_VCT,
        claims: PID_CLAIMS,
        disclosable: Object.keys(PID_CLAIMS),
      });
      const mdoc = await issueTestMdoc({
        issuer: signer,
        devicePublicJwk: holder.publicJwk,
        docType: PID_NS,
        namespaces: { [PID_NS]: PID_CLAIMS },
      });
      const answer = await client.answer(resolved, {
        pid: [
          await presentTestSdJwtVc(sdJwtVc, {
            holderPrivateJwk: holder.privateJwk,
            disclose: ['age_over_18'],
            nonce: request.nonce,
            audience: clientId,
          }),
        ],
        pid_mdoc: [
          await presentTestMdoc(mdoc, {
            devicePrivateJwk: holder.privateJwk,
            disclose: { [PID_NS]: ['age_over_18'] },
            clientId,
            nonce: request.nonce,
            responseUri: String(request.response_uri),
            jwkThumbprint: await thumbprintOf(request.client_metadata?.jwks),
          }),
        ],
      });
      expect({ status: answer.status, body: answer.body }).toEqual({ status: 200, body: {} });

      const outcome = await result(requestId);
      expect({ status: outcome.status, body: outcome.body }).toEqual({
        status: 200,
        body: {
          status: 'verified',
          credentials: {
            pid: [
              {
                format: 'dc+sd-jwt',
                issuer: 'https://issuer.example',
                claims: { age_over_18: true },
                status: 'valid',
              },
            ],
            pid_mdoc: [
              {
                format: 'mso_mdoc',
                issuer: expect.stringContaining('issuer.example'),
                claims: { [PID_NS]: { age_over_18: true } },
                status: 'valid',
              },
            ],
          },
        },
      });
      // Once, whichever replica is asked; the answer replayed is refused.
      for (let i = 0; i < 2; i += 1) expect((await result(requestId)).status).toBe(400);
      const replay = await fetch(`${gw()}${new URL(String(request.response_uri)).pathname}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ response: answer.jwe }).toString(),
      });
      expect(replay.status).toBe(400);
    });

    it('refuses a PID of an issuer the stack does not trust: the site learns the rule, nothing else', async () => {
      const rogueCa = await createCa({ subject: 'CN=Rogue PID provider CA' });
      const rogue = await issueLeaf(rogueCa, {
        subject: 'CN=issuer.example',
        dnsNames: ['issuer.example'],
      });
      const { requestId, openid4vpUri } = await create({
        credentials: [AGE_QUERY.credentials[0]],
      });
      const client = wallet();
      const resolved = await client.resolve(openid4vpUri);
      const credential = await issueTestSdJwtVc({
        issuer: { privateKeyJwk: rogue.privateKeyJwk, x5c: rogue.x5c },
        holderPublicJwk: holder.publicJwk,
        vct: PID_VCT,
        claims: PID_CLAIMS,
        disclosable: Object.keys(PID_CLAIMS),
      });
      const answer = await client.answer(resolved, {
        pid: [
          await presentTestSdJwtVc(credential, {
            holderPrivateJwk: holder.privateJwk,
            disclose: ['age_over_18'],
            nonce: resolved.authorizationRequestPayload.nonce,
            audience: String(resolved.authorizationRequestPayload.client_id),
          }),
        ],
      });
      expect(answer).toMatchObject({ status: 400, body: { error: 'access_denied' } });
      expect((await result(requestId)).body).toEqual({
        status: 'refused',
        error: 'access_denied',
        rule: 'issuer_untrusted',
      });
    });

    it('takes this service’s own VC (jwt_vc_json, create-vc): the site gets only the credentialSubject claims it asked for', async () => {
      const own = await ownHolder(stack(), 'presentation-request-holder');
      const issuers = (await getJson(`${gw()}/v2/did/issuers`)) as Json[];
      const { requestId, openid4vpUri } = await create({
        credentials: [
          {
            id: 'profile',
            format: 'jwt_vc_json',
            meta: { type_values: [['VerifiableCredential', 'Profile']] },
            claims: [{ path: ['credentialSubject', 'name'] }],
          },
        ],
      });
      const client = wallet();
      const resolved = await client.resolve(openid4vpUri);
      const request = resolved.authorizationRequestPayload;
      // The holder's VP JWT (@itp/wallet's presentationJwt), bound to this request: `aud` the
      // x509_san_dns client id, its nonce. Only those two members of the request are read.
      const binding = { clientId: request.client_id, nonce: request.nonce };
      const vp = await own.wallet.presentation(binding as ResolvedLoginRequest, own.vcJwt);
      const answer = await client.answer(resolved, { profile: [vp] });
      expect({ status: answer.status, body: answer.body }).toEqual({ status: 200, body: {} });
      expect((await result(requestId)).body).toEqual({
        status: 'verified',
        credentials: {
          profile: [
            {
              format: 'jwt_vc_json',
              issuer: issuers[0].did,
              claims: { name: DEMO_USER.name },
              status: 'valid',
            },
          ],
        },
      });
    });
  });
};
