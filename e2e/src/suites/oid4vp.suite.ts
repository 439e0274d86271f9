/**
 * OpenID4VP 1.0 web-site login through the gateway, with a third-party wallet: the wallet is
 * `Oid4vpWallet` (@itp/wallet: the OpenWallet Foundation's `Openid4vpClient`, `dcql`, did-jwt,
 * a did:ethr resolver of the stack's chain) and holds its own key. The platform
 * only issues the credential (create-vc) and runs the verifier side; the key never leaves the
 * test: the test imports a fresh mnemonic into the token API (so that create-did accepts the
 * address) and derives the same key from it locally.
 */
import { describe, expect, it } from '@jest/globals';
import { decodeJWT } from 'did-jwt';
import { HDNodeWallet, Wallet, getAddress } from 'ethers';
import { Oid4vpWallet, verifyDidSignedJwt, type SubmitAnswer } from '@itp/wallet';
import { thirdPartyResolver } from '../did-ethr.js';
import { DEMO_SITE, DEMO_USER, bearerOfDemoUser } from '../flows.js';
import { basicAuth, getJson, ok, post, type Json } from '../http.js';
import type { GatewayStack, Suite } from './context.js';

const site = { authorization: basicAuth(DEMO_SITE.id, DEMO_SITE.secret) };
const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A holder whose key only the test holds, its DID bound to the demo user, one credential. */
export interface OwnHolder {
  wallet: Oid4vpWallet;
  did: string;
  /** The credential as create-vc answered it (this API's VC shape). */
  credential: Json;
  vcJwt: string;
}

/**
 * A fresh BIP-39 mnemonic imported with importAddress and derived locally (ethers, default path
 * m/44'/60'/0'/0/0) to the same address; its DID bound to the demo user (create-did with the
 * address's secretKey and the user's bearer); a credential issued to that DID by the first issuer.
 */
export async function ownHolder(stack: GatewayStack, alias: string): Promise<OwnHolder> {
  const gw = stack.gatewayUrl;
  const mnemonic = Wallet.createRandom().mnemonic!.phrase;
  const imported = (await ok(gw, '/token', 'importAddress', { mnemonic })) as {
    address: string;
    secretKey: string;
  };
  const key = HDNodeWallet.fromPhrase(mnemonic);
  expect(getAddress(imported.address)).toBe(key.address);

  const bearer = await bearerOfDemoUser(gw);
  const did = await post(
    `${gw}/v2/did/create-did`,
    { alias, address: imported.address, secretKey: imported.secretKey },
    bearer,
  );
  expect(did.status).toBe(200);
  expect((did.body.did as string).toLowerCase()).toBe(`did:ethr:${key.address}`.toLowerCase());

  const issuers = (await getJson(`${gw}/v2/did/issuers`)) as Json[];
  const vc = await post(
    `${gw}/v2/did/create-vc`,
    { holder: did.body.did, issuer: issuers[0].did, userInfo: { name: DEMO_USER.name } },
    bearer,
  );
  expect(vc.status).toBe(200);
  return {
    wallet: new Oid4vpWallet({
      resolver: thirdPartyResolver(stack),
      holder: { did: did.body.did as string, privateKey: key.privateKey },
      // The stack serves plain HTTP on loopback.
      allowInsecureUrls: true,
    }),
    did: did.body.did as string,
    credential: vc.body,
    vcJwt: vc.body.proof.jwt as string,
  };
}

export interface SiteLogin {
  requestId: string;
  openid4vpUri: string;
  /** The site's poll: auth-user-result-by-app. */
  poll(): Promise<{ status: number; body: Json }>;
}

/** The web site's side: a login request (auth-user-by-app) and its poll. */
export async function siteLogin(gw: string, path: string): Promise<SiteLogin> {
  const created = await post(
    `${gw}/v2/auth/auth-user-by-app`,
    { requestId: `${DEMO_SITE.requestIdPrefix}${path}?`, waitTime: 120 },
    site,
  );
  expect(created.status).toBe(200);
  const { requestId, openid4vpUri } = created.body as { requestId: string; openid4vpUri: string };
  expect(requestId.startsWith(`${DEMO_SITE.requestIdPrefix}${path}?requestId=`)).toBe(true);
  expect(typeof openid4vpUri).toBe('string');
  return {
    requestId,
    openid4vpUri,
    poll: () => post(`${gw}/v2/auth/auth-user-result-by-app`, { requestId }, site),
  };
}

/** The two parameters of an `openid4vp://` URI, checked to be exactly those two, URL-encoded. */
function uriParameters(openid4vpUri: string): { clientId: string; requestUri: string } {
  const url = new URL(openid4vpUri);
  expect(url.protocol).toBe('openid4vp:');
  expect([...url.searchParams.keys()]).toEqual(['client_id', 'request_uri']);
  const clientId = url.searchParams.get('client_id')!;
  const requestUri = url.searchParams.get('request_uri')!;
  expect(openid4vpUri).toBe(
    `openid4vp://?client_id=${encodeURIComponent(clientId)}&request_uri=${encodeURIComponent(requestUri)}`,
  );
  return { clientId, requestUri };
}

/**
 * A refusal of the response endpoint: 400, an OAuth error body and nothing else, and nothing
 * about the user in it.
 */
export function expectRefusal(answer: SubmitAnswer, error?: string): void {
  expect(answer.status).toBe(400);
  expect(answer.contentType).toMatch(/^application\/json\b/);
  expect(answer.body).toEqual({
    error: error ?? expect.stringMatching(/^[a-z_]+$/),
    error_description: expect.any(String),
  });
  const text = JSON.stringify(answer.body);
  expect(text).not.toMatch(new RegExp(`\\b${escapeRegExp(DEMO_USER.id)}\\b`, 'i'));
  expect(text).not.toContain(DEMO_USER.name);
}

/**
 * /v2/auth/oid4vp through the gateway: an OpenID4VP 1.0 web-site login answered by a third-party
 * wallet holding its own key; one-time request objects, replays and wrong audiences refused.
 */
export const oid4vpSuite: Suite = ({ stack }) => {
  describe('OpenID4VP 1.0 login through the gateway (third-party wallet)', () => {
    it('a wallet holding its own key logs the demo user in to the site from the QR code’s URI', async () => {
      const gw = stack().gatewayUrl;
      const holder = await ownHolder(stack(), 'oid4vp-login');
      const login = await siteLogin(gw, 'oid4vp-login');

      // The QR code's content: the verifier DID's client id and a one-time request URI.
      const { clientId, requestUri } = uriParameters(login.openid4vpUri);
      expect(clientId).toMatch(/^decentralized_identifier:did:ethr:0x[0-9a-fA-F]{40}$/);
      const verifierDids = ((await getJson(`${gw}/v2/did/verifiers`)) as Json[]).map((v) => v.did);
      expect(verifierDids).toContain(clientId.slice('decentralized_identifier:'.length));
      expect(requestUri).toMatch(
        new RegExp(`^${escapeRegExp(gw)}/v2/auth/oid4vp/request/[A-Za-z0-9_-]+$`),
      );
      expect((await login.poll()).status).toBe(401);

      // The wallet fetches and verifies the request object (signature by the client id's DID).
      const resolved = await holder.wallet.resolve(login.openid4vpUri);
      expect(resolved.clientId).toBe(clientId);
      expect(resolved.signerKid.startsWith(`${resolved.verifierDid}#`)).toBe(true);
      expect(resolved.request).toMatchObject({
        response_type: 'vp_token',
        response_mode: 'direct_post',
      });
      expect(resolved.request.redirect_uri).toBeUndefined();
      expect(resolved.responseUri).toMatch(
        new RegExp(`^${escapeRegExp(gw)}/v2/auth/oid4vp/response/[A-Za-z0-9_-]+$`),
      );
      // One credential of this service, either of two (credential_sets): a jwt_vc_json one of
      // type VerifiableCredential (the wallet's credential fits it) or the Profile SD-JWT VC.
      expect(resolved.dcqlQuery.credentials).toHaveLength(2);
      const [query, sdJwtQuery] = resolved.dcqlQuery.credentials;
      expect(query.format).toBe('jwt_vc_json');
      expect(query.meta).toMatchObject({
        type_values: expect.arrayContaining([expect.arrayContaining(['VerifiableCredential'])]),
      });
      expect(sdJwtQuery).toMatchObject({
        format: 'dc+sd-jwt',
        meta: { vct_values: [`${gw}/v2/did/oid4vci/vct/profile`] },
      });
      expect(resolved.dcqlQuery.credential_sets).toEqual([
        expect.objectContaining({ options: [[query.id], [sdJwtQuery!.id]] }),
      ]);
      const { queryId, vcJwt } = holder.wallet.select(resolved, [holder.vcJwt]);
      expect(queryId).toBe(query.id);

      const vp = await holder.wallet.presentation(resolved, vcJwt);
      expect(decodeJWT(vp).payload).toMatchObject({
        iss: holder.did,
        aud: clientId,
        nonce: resolved.nonce,
      });
      const answer = await holder.wallet.submit(resolved, queryId, vp);
      expect(answer).toEqual({
        status: 200,
        contentType: expect.stringMatching(/^application\/json\b/),
        body: {},
      });

      // The site's poll: the login result, once.
      const result = await login.poll();
      expect(result.status).toBe(200);
      expect(result.body).toMatchObject({ userId: DEMO_USER.id, token: expect.any(String) });
      expect((await login.poll()).status).toBe(400);
    }, 120_000);

    it('serves the request object once (a second GET: 404), signed by the verifier DID, with a fresh nonce and state', async () => {
      const gw = stack().gatewayUrl;
      const first = await siteLogin(gw, 'oid4vp-request-object');
      const second = await siteLogin(gw, 'oid4vp-request-object');
      const { clientId, requestUri } = uriParameters(first.openid4vpUri);
      const verifierDid = clientId.slice('decentralized_identifier:'.length);

      // GET as a wallet does (plain fetch here, so the test sees the exact answer).
      const accept = 'application/oauth-authz-req+jwt, application/jwt;q=0.9, text/plain';
      const res = await fetch(requestUri, { headers: { accept } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/oauth-authz-req\+jwt\b/);
      const jwt = (await res.text()).trim();
      const { header, payload } = decodeJWT(jwt);
      expect(header).toMatchObject({ typ: 'oauth-authz-req+jwt', alg: 'ES256K' });
      expect(header.kid).toMatch(new RegExp(`^${escapeRegExp(verifierDid)}#`));
      const verified = await verifyDidSignedJwt(thirdPartyResolver(stack()))(
        { method: 'did', didUrl: header.kid!, alg: 'ES256K' },
        { compact: jwt },
      );
      expect(verified.verified).toBe(true);
      expect(payload).toMatchObject({
        aud: 'https://self-issued.me/v2',
        client_id: clientId,
        response_type: 'vp_token',
        response_mode: 'direct_post',
        response_uri: expect.stringMatching(
          new RegExp(`^${escapeRegExp(gw)}/v2/auth/oid4vp/response/[A-Za-z0-9_-]+$`),
        ),
        nonce: expect.stringMatching(/.{16,}/),
        state: expect.stringMatching(/.+/),
        dcql_query: {
          credentials: [
            expect.objectContaining({ format: 'jwt_vc_json' }),
            expect.objectContaining({ format: 'dc+sd-jwt' }),
          ],
        },
      });
      expect(payload).not.toHaveProperty('redirect_uri');

      // One-time: the same URI again is gone; an unknown id never was.
      const again = await fetch(requestUri, { headers: { accept } });
      expect(again.status).toBe(404);
      expect(await again.json()).toMatchObject({ error: expect.stringMatching(/^[a-z_]+$/) });
      const unknown = await fetch(`${gw}/v2/auth/oid4vp/request/unknown0request0id`, {
        headers: { accept },
      });
      expect([400, 404]).toContain(unknown.status);
      expect(await unknown.json()).toMatchObject({ error: expect.stringMatching(/^[a-z_]+$/) });

      // Another login request gets its own nonce and state.
      const other = await fetch(uriParameters(second.openid4vpUri).requestUri, {
        headers: { accept },
      });
      expect(other.status).toBe(200);
      const otherPayload = decodeJWT((await other.text()).trim()).payload;
      expect(otherPayload['nonce']).not.toBe(payload['nonce']);
      expect(otherPayload['state']).not.toBe(payload['state']);
      expect(otherPayload['response_uri']).not.toBe(payload['response_uri']);

      // A consumed request object approves nothing by itself.
      expect((await first.poll()).status).toBe(401);
    }, 120_000);

    it('refuses a replayed response (400); the site gets the login result once', async () => {
      const gw = stack().gatewayUrl;
      const holder = await ownHolder(stack(), 'oid4vp-replay');
      const login = await siteLogin(gw, 'oid4vp-replay');
      const resolved = await holder.wallet.resolve(login.openid4vpUri);
      const { queryId, vcJwt } = holder.wallet.select(resolved, [holder.vcJwt]);
      const vp = await holder.wallet.presentation(resolved, vcJwt);

      expect((await holder.wallet.submit(resolved, queryId, vp)).status).toBe(200);
      expectRefusal(await holder.wallet.submit(resolved, queryId, vp));

      const result = await login.poll();
      expect(result.status).toBe(200);
      expect(result.body).toMatchObject({ userId: DEMO_USER.id });
      expect((await login.poll()).status).toBe(400);
    }, 120_000);

    it('refuses a VP addressed to the bare verifier DID instead of the full client id (400); the login stays pending', async () => {
      const gw = stack().gatewayUrl;
      const holder = await ownHolder(stack(), 'oid4vp-bare-aud');
      const login = await siteLogin(gw, 'oid4vp-bare-aud');
      const resolved = await holder.wallet.resolve(login.openid4vpUri);
      const { queryId, vcJwt } = holder.wallet.select(resolved, [holder.vcJwt]);
      const vp = await holder.wallet.presentation(resolved, vcJwt, { aud: resolved.verifierDid });
      expect(decodeJWT(vp).payload.aud).toBe(resolved.verifierDid);

      expectRefusal(await holder.wallet.submit(resolved, queryId, vp));
      const poll = await login.poll();
      expect(poll.status).toBe(401);
      expect(poll.body.error.code).toBe('401');
    }, 120_000);

    it('refuses a revoked credential (400 access_denied); the login stays pending', async () => {
      const gw = stack().gatewayUrl;
      const holder = await ownHolder(stack(), 'oid4vp-revoked');
      const revoked = await post(
        `${gw}/v2/did/revoke-vc`,
        { vc: holder.credential },
        await bearerOfDemoUser(gw),
      );
      expect(revoked.status).toBe(200);

      const login = await siteLogin(gw, 'oid4vp-revoked');
      const { answer } = await holder.wallet.logIn(login.openid4vpUri, [holder.vcJwt]);
      expectRefusal(answer, 'access_denied');
      const poll = await login.poll();
      expect(poll.status).toBe(401);
      expect(poll.body.error.code).toBe('401');
    }, 120_000);
  });
};
