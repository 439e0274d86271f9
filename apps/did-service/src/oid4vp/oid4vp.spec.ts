import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DcqlQuery } from 'dcql';
import { ES256KSigner, createJWT, decodeJWT } from 'did-jwt';
import { Wallet } from 'ethers';
import { decodeJwt, exportJWK, generateKeyPair } from 'jose';
import { BadRequestError, ServiceUnavailableError } from '@itp/errors';
import { HARNESS_PUBLIC_URL, startDidHarness, type DidHarness } from '../testing/did-harness.js';
import { decodePayload, foreignCredential } from '../testing/jwt-tampering.js';
import { oid4vpTestWallet } from '../testing/oid4vp-wallet.js';
import { createRequestObject } from './request-object.js';
import { verifyOid4vpResponse } from './verify-response.js';
import { thirdPartyResolver } from '../testing/third-party-resolver.js';
import {
  didJwkHolder,
  didKeyHolder,
  issueToHolder,
  joseHolder,
  type StandardWalletHolder,
} from '../testing/standard-wallet-holders.js';

/** The request object's `iss`, as jose decodes it. */
const decodeProtectedIss = (jwt: string) => decodeJwt(jwt).iss;

const require = createRequire(import.meta.url);

/**
 * The `@type` of a VC after JSON-LD expansion (jsonld.js, the contexts from the W3C packages, no
 * network), as a strict wallet matches `type_values`.
 */
async function expandedTypes(vc: unknown): Promise<string[]> {
  const jsonld = require('jsonld') as {
    expand(
      doc: unknown,
      options: { documentLoader: (url: string) => Promise<unknown> },
    ): Promise<Array<Record<string, unknown>>>;
  };
  const contexts = new Map<string, unknown>([
    ...(require('@digitalbazaar/credentials-context') as { contexts: Map<string, unknown> })
      .contexts,
    ...(
      (await import('@digitalbazaar/vc-bitstring-status-list-context' as string)) as {
        contexts: Map<string, unknown>;
      }
    ).contexts,
  ]);
  const documentLoader = async (url: string) => {
    const document = contexts.get(url);
    if (!document) throw new Error(`no local context ${url}`);
    return { document, documentUrl: url, contextUrl: null };
  };
  const [expanded] = await jsonld.expand(vc, { documentLoader });
  return (expanded?.['@type'] ?? []) as string[];
}

const RESPONSE_URI = 'http://127.0.0.1:8081/v2/auth/oid4vp/response';

describe('internal OpenID4VP endpoints with a third-party wallet (@openid4vc/openid4vp)', () => {
  let h: DidHarness;
  let issuer: string;
  let verifier: string;
  let wallet: ReturnType<typeof oid4vpTestWallet>;
  let dora: { did: string; privateKey: string; auth: Record<string, string>; vcJwt: string };
  let eve: { did: string; privateKey: string; vcJwt: string };

  /** A holder DID bound to `user` (its key held by the test) and a VC of this service for it. */
  const holderWithVc = async (user: string) => {
    const account = h.wallet.createAddress();
    const auth = { authorization: `Bearer ${await h.auth.tokenFor(user)}` };
    const did = (
      await h.post(
        '/v2/did/create-did',
        { alias: user, address: account.address, secretKey: account.secretKey },
        auth,
      )
    ).body.did as string;
    const vc = (
      await h.post('/v2/did/create-vc', { holder: did, issuer, userInfo: { name: user } }, auth)
    ).body;
    return { did, privateKey: account.privateKey, auth, vc, vcJwt: vc.proof.jwt as string };
  };

  const requestObject = (body: unknown, headers?: Record<string, string>) =>
    h.postInternal('/internal/v1/oid4vp/request-object', body, headers);
  const verifyResponse = (body: unknown, headers?: Record<string, string>) =>
    h.postInternal('/internal/v1/oid4vp/verify-response', body, headers);

  /** A new authorization request, as the wallet resolved it from the endpoint's answer. */
  const newRequest = async () => {
    const nonce = crypto.randomUUID();
    const state = crypto.randomUUID();
    const res = await requestObject({ state, nonce, responseUri: RESPONSE_URI });
    expect(res.status).toBe(200);
    const resolved = await wallet.resolve(res.body.clientId, res.body.requestObject);
    return { nonce, state, clientId: res.body.clientId as string, resolved };
  };

  beforeAll(async () => {
    h = await startDidHarness();
    issuer = (await h.get('/v2/did/issuers')).body[0].did;
    verifier = (await h.get('/v2/did/verifiers')).body[0].did;
    wallet = oid4vpTestWallet(thirdPartyResolver(h.config.DID_REGISTRY_ADDRESS ?? ''));
    dora = await holderWithVc('dora');
    eve = await holderWithVc('eve');
  });
  afterAll(() => h.close());

  describe('POST /internal/v1/oid4vp/request-object', () => {
    it('answers the client id and a request object signed by the verifier DID, which the wallet resolves', async () => {
      const res = await requestObject({
        state: 'state-1',
        nonce: 'nonce-1',
        responseUri: RESPONSE_URI,
        expiresInSeconds: 120,
      });
      expect(res.status).toBe(200);
      expect(res.body.clientId).toBe(`decentralized_identifier:${verifier}`);
      const { header, payload } = decodeJWT(res.body.requestObject);
      expect(header).toEqual({
        alg: 'ES256K',
        typ: 'oauth-authz-req+jwt',
        kid: `${verifier}#controller`,
      });
      expect(payload).toEqual({
        client_id: `decentralized_identifier:${verifier}`,
        response_type: 'vp_token',
        response_mode: 'direct_post',
        response_uri: RESPONSE_URI,
        nonce: 'nonce-1',
        state: 'state-1',
        iss: verifier,
        aud: 'https://self-issued.me/v2',
        client_metadata: {
          vp_formats_supported: {
            jwt_vc_json: { alg_values: ['ES256K', 'ES256', 'EdDSA'] },
            'dc+sd-jwt': { 'sd-jwt_alg_values': ['ES256'], 'kb-jwt_alg_values': ['ES256'] },
          },
        },
        iat: expect.any(Number),
        exp: (payload.iat ?? 0) + 120,
        dcql_query: {
          credentials: [
            {
              id: 'itp_credential',
              format: 'jwt_vc_json',
              meta: {
                type_values: [
                  ['VerifiableCredential', 'Profile'],
                  ['https://www.w3.org/2018/credentials#VerifiableCredential', 'Profile'],
                ],
              },
            },
            {
              id: 'itp_sd_jwt',
              format: 'dc+sd-jwt',
              meta: { vct_values: [`${HARNESS_PUBLIC_URL}/v2/did/oid4vci/vct/profile`] },
            },
          ],
          // Either of the two (OpenID4VP 1.0 §6.2).
          credential_sets: [{ options: [['itp_credential'], ['itp_sd_jwt']] }],
        },
      });
      const resolved = await wallet.resolve(res.body.clientId, res.body.requestObject);
      expect(resolved.client).toMatchObject({ identifier: verifier });
      expect(resolved.jar?.signer).toMatchObject({
        method: 'did',
        didUrl: `${verifier}#controller`,
      });
      expect(resolved.dcql?.query).toEqual(payload.dcql_query);
      // What a strict OpenID4VP 1.0 wallet reads: the verifier's formats and the JAR's issuer.
      expect(resolved.authorizationRequestPayload.client_metadata?.vp_formats_supported).toEqual({
        jwt_vc_json: { alg_values: ['ES256K', 'ES256', 'EdDSA'] },
        'dc+sd-jwt': { 'sd-jwt_alg_values': ['ES256'], 'kb-jwt_alg_values': ['ES256'] },
      });
      expect(decodeProtectedIss(res.body.requestObject)).toBe(resolved.client.identifier);
    });

    it('asks for types that a VC of this service has both as written and after JSON-LD expansion (Appendix B.1.1)', async () => {
      const { resolved } = await newRequest();
      const query = DcqlQuery.parse(resolved.dcql?.query as DcqlQuery.Input);
      // What a wallet holding the jwt_vc_json credential has: the JWT's `vc` claim.
      const vc = decodeJWT(dora.vcJwt).payload.vc as { type: string[] };
      const expanded = await expandedTypes(vc);
      expect(expanded).toEqual([
        'https://www.w3.org/2018/credentials#VerifiableCredential',
        'Profile',
      ]);
      for (const type of [vc.type, expanded]) {
        const result = DcqlQuery.query(query, [
          {
            credential_format: 'jwt_vc_json',
            type,
            claims: {},
            cryptographic_holder_binding: true,
          },
        ]);
        expect({ type, satisfied: result.can_be_satisfied }).toEqual({ type, satisfied: true });
      }
    });

    it('is satisfied by either credential alone: the jwt_vc_json VC or the Profile SD-JWT VC of this service (credential_sets)', async () => {
      const { resolved } = await newRequest();
      const query = DcqlQuery.parse(resolved.dcql?.query as DcqlQuery.Input);
      DcqlQuery.validate(query);
      const vc = decodeJWT(dora.vcJwt).payload.vc as { type: string[] };
      const jwtVc = {
        credential_format: 'jwt_vc_json' as const,
        type: vc.type,
        claims: {},
        cryptographic_holder_binding: true,
      };
      const sdJwtVc = (vct: string) => ({
        credential_format: 'dc+sd-jwt' as const,
        vct,
        claims: { sub: 'dora' },
        cryptographic_holder_binding: true,
      });
      const satisfied = (credentials: Parameters<typeof DcqlQuery.query>[1]) =>
        DcqlQuery.query(query, credentials).can_be_satisfied;
      expect(satisfied([jwtVc])).toBe(true);
      expect(satisfied([sdJwtVc(`${HARNESS_PUBLIC_URL}/v2/did/oid4vci/vct/profile`)])).toBe(true);
      // Another issuer's SD-JWT VC type is not asked for.
      expect(satisfied([sdJwtVc('urn:eudi:pid:1')])).toBe(false);
    });

    it('defaults to 300 s', async () => {
      const res = await requestObject({ state: 's', nonce: 'n', responseUri: RESPONSE_URI });
      const { payload } = decodeJWT(res.body.requestObject);
      expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(300);
    });

    it('a request object signed by another key does not resolve in the wallet', async () => {
      const res = await requestObject({ state: 's', nonce: 'n', responseUri: RESPONSE_URI });
      const [head, body] = res.body.requestObject.split('.');
      const forged = `${head}.${body}.${Buffer.alloc(64, 7).toString('base64url')}`;
      await expect(wallet.resolve(res.body.clientId, forged)).rejects.toThrow();
    });

    it('takes an http response URI only in development / test', async () => {
      const deps = { agent: h.app.agent, serviceDids: h.app.serviceDids };
      const request = { state: 's', nonce: 'n', responseUri: RESPONSE_URI };
      await expect(
        createRequestObject({ ...deps, allowInsecureUrls: false }, request),
      ).rejects.toBeInstanceOf(BadRequestError);
      const https = await createRequestObject(
        { ...deps, allowInsecureUrls: false },
        { ...request, responseUri: 'https://login.example.com/v2/auth/oid4vp/response' },
      );
      expect(decodeJWT(https.requestObject).payload.response_uri).toBe(
        'https://login.example.com/v2/auth/oid4vp/response',
      );
    });

    it('answers 400 for a bad body', async () => {
      for (const body of [
        {},
        { state: 's', nonce: 'n' },
        { state: '', nonce: 'n', responseUri: RESPONSE_URI },
        { state: 's', nonce: 'n', responseUri: 'ftp://example.com/x' },
        { state: 's', nonce: 'n', responseUri: 'not a url' },
        { state: 's', nonce: 'n', responseUri: RESPONSE_URI, expiresInSeconds: 601 },
        { state: 's', nonce: 'n', responseUri: RESPONSE_URI, expiresInSeconds: 0 },
      ]) {
        expect((await requestObject(body)).status).toBe(400);
      }
    });

    it('is only for callers with the internal API token', async () => {
      const body = { state: 's', nonce: 'n', responseUri: RESPONSE_URI };
      expect((await requestObject(body, {})).status).toBe(401);
      expect(
        (await requestObject(body, { authorization: 'Bearer wrong-token-wrong-token' })).status,
      ).toBe(401);
    });
  });

  describe('POST /internal/v1/oid4vp/verify-response', () => {
    it('accepts the wallet’s answer and names the user and the holder', async () => {
      const { nonce, state, clientId, resolved } = await newRequest();
      const vp = await wallet.presentation(dora.did, dora.privateKey, [dora.vcJwt], {
        aud: clientId,
        nonce,
      });
      const posted = await wallet.answer(resolved, { itp_credential: [vp] });
      expect(posted.state).toBe(state);
      const res = await verifyResponse({ vpToken: posted.vpToken, nonce, clientId });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        verified: true,
        userId: 'dora',
        holder: dora.did,
        // The VC's nbf: auth-service refuses a credential issued before the user's reset.
        credentialIssuedAt: decodePayload(dora.vcJwt).nbf,
      });
    });

    /** The wallet's answer with this VP, checked against the request's nonce and client id. */
    const refusal = async (
      make: (req: { nonce: string; clientId: string }) => Promise<Record<string, string[]>>,
    ) => {
      const { nonce, clientId, resolved } = await newRequest();
      const posted = await wallet.answer(resolved, await make({ nonce, clientId }));
      const res = await verifyResponse({ vpToken: posted.vpToken, nonce, clientId });
      expect(res.status).toBe(200);
      expect(res.body.verified).toBe(false);
      return res.body.error as { code: string; message: string };
    };

    it('refuses a VP with another nonce', async () => {
      const error = await refusal(async ({ clientId }) => ({
        itp_credential: [
          await wallet.presentation(dora.did, dora.privateKey, [dora.vcJwt], {
            aud: clientId,
            nonce: 'another-nonce',
          }),
        ],
      }));
      expect(error.code).toBe('wrong_nonce');
    });

    it('refuses a VP addressed to the bare verifier DID instead of the full client id', async () => {
      const error = await refusal(async ({ nonce }) => ({
        itp_credential: [
          await wallet.presentation(dora.did, dora.privateKey, [dora.vcJwt], {
            aud: verifier,
            nonce,
          }),
        ],
      }));
      expect(error.code).toBe('wrong_audience');
    });

    it('refuses a VP addressed to the client id and someone else', async () => {
      const { nonce, clientId, resolved } = await newRequest();
      const vp = await wallet.presentation(dora.did, dora.privateKey, [dora.vcJwt], {
        aud: clientId,
        nonce,
      });
      // The same holder's key signs a VP whose aud is an array naming a second party.
      const twoAudiences = await createJWT(
        { ...decodeJWT(vp).payload, aud: [clientId, 'https://rp.example.com'] },
        {
          issuer: dora.did,
          signer: ES256KSigner(Buffer.from(dora.privateKey.slice(2), 'hex')),
        },
        { alg: 'ES256K' },
      );
      const posted = await wallet.answer(resolved, { itp_credential: [twoAudiences] });
      const res = await verifyResponse({ vpToken: posted.vpToken, nonce, clientId });
      expect(res.body).toMatchObject({ verified: false, error: { code: 'wrong_audience' } });
    });

    it('a chain outage while resolving the holder is a 503, not a refusal', async () => {
      const { nonce, clientId, resolved } = await newRequest();
      const key = Wallet.createRandom();
      const vp = await wallet.presentation(
        `did:ethr:unconfigured:${key.address}`,
        key.privateKey,
        [dora.vcJwt],
        { aud: clientId, nonce },
      );
      const posted = await wallet.answer(resolved, { itp_credential: [vp] });
      const outage = new ServiceUnavailableError(
        'The chain is unavailable: DIDs cannot be resolved',
      );
      const ctx = {
        agent: h.app.agent,
        serviceDids: h.app.serviceDids,
        status: undefined as never,
        assertChainAvailable: () => Promise.reject(outage),
      };
      await expect(
        verifyOid4vpResponse(ctx, { vpToken: posted.vpToken, nonce, clientId }),
      ).rejects.toBe(outage);
    });

    it('refuses a VP signed by another key than the holder’s', async () => {
      const error = await refusal(async ({ nonce, clientId }) => ({
        itp_credential: [
          await wallet.presentation(dora.did, Wallet.createRandom().privateKey, [dora.vcJwt], {
            aud: clientId,
            nonce,
          }),
        ],
      }));
      expect(error.code).toBe('invalid_signature');
    });

    it('refuses a VC about another subject than the holder', async () => {
      const error = await refusal(async ({ nonce, clientId }) => ({
        itp_credential: [
          await wallet.presentation(dora.did, dora.privateKey, [eve.vcJwt], {
            aud: clientId,
            nonce,
          }),
        ],
      }));
      expect(error.code).toBe('subject_mismatch');
    });

    it('refuses a VC of another issuer, and one of this issuer without the types asked for', async () => {
      const foreign = await foreignCredential(dora.did, 'dora');
      expect(
        await refusal(async ({ nonce, clientId }) => ({
          itp_credential: [
            await wallet.presentation(dora.did, dora.privateKey, [foreign.jwt], {
              aud: clientId,
              nonce,
            }),
          ],
        })),
      ).toMatchObject({ code: 'foreign_issuer' });
      const untyped = await h.app.agent.createVerifiableCredential({
        proofFormat: 'jwt',
        credential: {
          '@context': ['https://www.w3.org/2018/credentials/v1'],
          type: ['VerifiableCredential'],
          issuer: { id: issuer },
          issuanceDate: new Date().toISOString(),
          credentialSubject: { id: dora.did, sub: 'dora' },
        },
      });
      expect(
        await refusal(async ({ nonce, clientId }) => ({
          itp_credential: [
            await wallet.presentation(dora.did, dora.privateKey, [untyped.proof.jwt as string], {
              aud: clientId,
              nonce,
            }),
          ],
        })),
      ).toMatchObject({ code: 'dcql_unsatisfied' });
    });

    it('refuses a token for another credential query id', async () => {
      const error = await refusal(async ({ nonce, clientId }) => ({
        other_credential: [
          await wallet.presentation(dora.did, dora.privateKey, [dora.vcJwt], {
            aud: clientId,
            nonce,
          }),
        ],
      }));
      expect(error.code).toBe('dcql_unsatisfied');
    });

    it('refuses a VP holding no credential', async () => {
      const error = await refusal(async ({ nonce, clientId }) => ({
        itp_credential: [
          await wallet.presentation(dora.did, dora.privateKey, [], { aud: clientId, nonce }),
        ],
      }));
      expect(error.code).toBe('no_credentials');
    });

    it('refuses a client id that is not this service’s', async () => {
      const { nonce, clientId, resolved } = await newRequest();
      const vp = await wallet.presentation(dora.did, dora.privateKey, [dora.vcJwt], {
        aud: clientId,
        nonce,
      });
      const posted = await wallet.answer(resolved, { itp_credential: [vp] });
      for (const other of [verifier, `decentralized_identifier:${issuer}`]) {
        const res = await verifyResponse({ vpToken: posted.vpToken, nonce, clientId: other });
        expect(res.body).toMatchObject({ verified: false, error: { code: 'wrong_audience' } });
      }
    });

    it('refuses malformed vp_tokens with a reason, never a 500', async () => {
      const { nonce, clientId } = await newRequest();
      const cases: Array<[string, string]> = [
        ['not json', 'invalid_vp_token'],
        ['[]', 'invalid_vp_token'],
        ['{"itp_credential":[]}', 'invalid_vp_token'],
        ['{"itp_credential":[42]}', 'invalid_vp_token'],
        ['{"itp_credential":"eyJ.eyJ.sig"}', 'invalid_jwt'],
        ['{"itp_credential":["a.b.c"]}', 'invalid_jwt'],
        ['{"itp_credential":[{"vp":{}}]}', 'invalid_vp_token'],
      ];
      for (const [vpToken, code] of cases) {
        const res = await verifyResponse({ vpToken, nonce, clientId });
        expect([vpToken, res.status, res.body.error?.code]).toEqual([vpToken, 200, code]);
      }
      for (const body of [{}, { vpToken: '', nonce, clientId }, { vpToken: 'x', nonce }]) {
        expect((await verifyResponse(body)).status).toBe(400);
      }
      expect((await verifyResponse({ vpToken: 'x', nonce, clientId }, {})).status).toBe(401);
    });

    it('refuses a revoked VC', async () => {
      const revoked = await holderWithVc('ruth');
      expect((await h.post('/v2/did/revoke-vc', { vc: revoked.vc }, revoked.auth)).status).toBe(
        200,
      );
      const error = await refusal(async ({ nonce, clientId }) => ({
        itp_credential: [
          await wallet.presentation(revoked.did, revoked.privateKey, [revoked.vcJwt], {
            aud: clientId,
            nonce,
          }),
        ],
      }));
      expect(error).toEqual({
        code: 'revoked',
        message: 'verifiableCredential[0]: The credential was revoked by its issuer',
      });
    });
  });

  describe('verify-response: a wallet holding its own did:jwk / did:key (not made by create-did)', () => {
    /** The wallet's answer, a VP of `holder` over `credentials`, checked by verify-response. */
    const answer = async (
      holder: StandardWalletHolder,
      credentials: string[],
      edit: (req: { nonce: string; clientId: string }) => {
        aud?: string;
        nonce?: string;
      } = () => ({}),
    ) => {
      const { nonce, clientId, resolved } = await newRequest();
      const vp = await holder.present(credentials, {
        aud: clientId,
        nonce,
        ...edit({ nonce, clientId }),
      });
      const posted = await wallet.answer(resolved, { itp_credential: [vp] });
      const res = await verifyResponse({ vpToken: posted.vpToken, nonce, clientId });
      expect(res.status).toBe(200);
      return res.body;
    };

    it('logs the user in with a did:jwk (P-256, jose) holder’s VP over a VC of this service', async () => {
      const holder = await didJwkHolder();
      const vcJwt = await issueToHolder(h, holder.did, 'fay', { name: 'Fay' });
      expect(await answer(holder, [vcJwt])).toEqual({
        verified: true,
        userId: 'fay',
        holder: holder.did,
        credentialIssuedAt: decodePayload(vcJwt).nbf,
      });
    });

    it.each(['Ed25519', 'P-256', 'secp256k1'] as const)(
      'logs the user in with a did:key (%s) holder’s VP',
      async (curve) => {
        const holder = didKeyHolder(curve);
        const vcJwt = await issueToHolder(h, holder.did, 'gus');
        expect(await answer(holder, [vcJwt])).toEqual({
          verified: true,
          userId: 'gus',
          holder: holder.did,
          credentialIssuedAt: decodePayload(vcJwt).nbf,
        });
      },
    );

    it('refuses a VP naming a did:jwk holder but signed by another key', async () => {
      const holder = await didJwkHolder();
      const vcJwt = await issueToHolder(h, holder.did, 'fay');
      const { privateKey: otherKey } = await generateKeyPair('ES256');
      const impostor = joseHolder(holder.did, holder.kid, otherKey);
      expect(await answer(impostor, [vcJwt])).toMatchObject({
        verified: false,
        error: { code: 'invalid_signature' },
      });
    });

    it('refuses a did:jwk holder presenting the VC of another DID, and the wrong nonce', async () => {
      const holder = await didJwkHolder();
      const other = await didJwkHolder();
      const vcJwt = await issueToHolder(h, other.did, 'fay');
      expect(await answer(holder, [vcJwt])).toMatchObject({
        verified: false,
        error: { code: 'subject_mismatch' },
      });
      const own = await issueToHolder(h, holder.did, 'fay');
      expect(await answer(holder, [own], () => ({ nonce: 'another-nonce' }))).toMatchObject({
        verified: false,
        error: { code: 'wrong_nonce' },
      });
    });

    it('refuses a did:jwk holder’s VC once revoked', async () => {
      const holder = await didJwkHolder();
      const vcJwt = await issueToHolder(h, holder.did, 'hal');
      const hal = { authorization: `Bearer ${await h.auth.tokenFor('hal')}` };
      expect((await h.post('/v2/did/revoke-vc', { jwt: vcJwt }, hal)).status).toBe(200);
      expect(await answer(holder, [vcJwt])).toEqual({
        verified: false,
        error: {
          code: 'revoked',
          message: 'verifiableCredential[0]: The credential was revoked by its issuer',
        },
      });
    });

    it('refuses a holder DID of a method this service does not resolve (resolver_error)', async () => {
      const { privateKey } = await generateKeyPair('ES256');
      const web = joseHolder(
        'did:web:wallet.example.com',
        'did:web:wallet.example.com#key-1',
        privateKey,
      );
      const vcJwt = await issueToHolder(h, web.did, 'fay');
      expect(await answer(web, [vcJwt])).toMatchObject({
        verified: false,
        error: { code: 'resolver_error' },
      });
    });

    it('refuses a did:jwk longer than a DID of the API (512 characters), though signed by its key', async () => {
      const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
      const jwk = { ...(await exportJWK(publicKey)), kid: 'k'.repeat(400) };
      const did = `did:jwk:${Buffer.from(JSON.stringify(jwk)).toString('base64url')}`;
      expect(did.length).toBeGreaterThan(512);
      const long = joseHolder(did, `${did}#0`, privateKey);
      const vcJwt = await issueToHolder(h, did, 'fay');
      expect(await answer(long, [vcJwt])).toMatchObject({
        verified: false,
        error: { code: 'resolver_error' },
      });
    });
  });
});
