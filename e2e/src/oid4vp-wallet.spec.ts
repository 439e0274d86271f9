/**
 * The e2e wallet against the library's own verifier side (`Openid4vpVerifier` of
 * @openid4vc/openid4vp) on loopback, without a stack: what the suite's wallet sends is checked
 * here, so a failing oid4vp.suite.ts points at the server. DID documents come from a stub
 * resolver shaped as ethr-did-resolver shapes a did:ethr address DID.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Openid4vpVerifier } from '@openid4vc/openid4vp';
import { ES256KSigner, createJWS, decodeJWT, hexToBytes, type JWTHeader } from 'did-jwt';
import { createVerifiableCredentialJwt, verifyPresentation } from 'did-jwt-vc';
import type { DIDResolutionResult, Resolvable } from 'did-resolver';
import { Wallet } from 'ethers';
import { Oid4vpWallet } from './oid4vp-wallet.js';

const VC_CONTEXT = 'https://www.w3.org/2018/credentials/v1';
const QUERY = {
  credentials: [
    {
      id: 'itp_credential',
      format: 'jwt_vc_json',
      meta: { type_values: [['VerifiableCredential', 'Profile']] },
    },
  ],
};

/** did:ethr:<address> documents as ethr-did-resolver answers them for a DID with no changes. */
const resolver: Resolvable = {
  resolve: async (did: string): Promise<DIDResolutionResult> => {
    const id = `${did}#controller`;
    return {
      didResolutionMetadata: {},
      didDocumentMetadata: {},
      didDocument: {
        id: did,
        verificationMethod: [
          {
            id,
            type: 'EcdsaSecp256k1RecoveryMethod2020',
            controller: did,
            blockchainAccountId: `eip155:31337:${did.split(':').pop()!}`,
          },
        ],
        authentication: [id],
        assertionMethod: [id],
      },
    };
  },
};

const keyOf = () => {
  const key = Wallet.createRandom();
  return { did: `did:ethr:${key.address}`, privateKey: key.privateKey };
};

/** A verifier: the library makes and signs the request object, a loopback server serves it. */
class LoopbackVerifier {
  readonly key = keyOf();
  readonly clientId = `decentralized_identifier:${this.key.did}`;
  /** The request object served at /request/<id>, and the form bodies posted to /response/<id>. */
  readonly requests = new Map<string, string>();
  readonly responses: URLSearchParams[] = [];
  private server: Server | undefined;
  private base = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const [, kind, id] = (req.url ?? '').split('/');
      if (req.method === 'GET' && kind === 'request' && this.requests.has(id!)) {
        res.writeHead(200, { 'content-type': 'application/oauth-authz-req+jwt' });
        res.end(this.requests.get(id!));
        return;
      }
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        this.responses.push(new URLSearchParams(body));
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.close();
    if (this.server) await once(this.server, 'close');
  }

  /** A request by reference, signed with `signingKey` (the verifier DID's key unless given). */
  async request(
    id: string,
    signingKey = this.key.privateKey,
  ): Promise<{ uri: string; nonce: string; state: string }> {
    const verifier = new Openid4vpVerifier({
      callbacks: {
        signJwt: async (_signer, { header, payload }) => ({
          // did-jwt types `typ` as "JWT" only; this header's is "oauth-authz-req+jwt".
          jwt: await createJWS(
            payload,
            ES256KSigner(hexToBytes(signingKey)),
            header as unknown as Partial<JWTHeader>,
          ),
          signerJwk: { kty: 'EC' },
        }),
        hash: () => new Uint8Array(),
        verifyJwt: () => ({ verified: false }),
        encryptJwe: () => Promise.reject(new Error('not used')),
        decryptJwe: () => Promise.reject(new Error('not used')),
      },
    });
    const nonce = `nonce-${id}-0123456789abcdef`;
    const state = `state-${id}`;
    const created = await verifier.createOpenId4vpAuthorizationRequest({
      authorizationRequestPayload: {
        response_type: 'vp_token',
        client_id: this.clientId,
        response_mode: 'direct_post',
        response_uri: `${this.base}/response/${id}`,
        nonce,
        state,
        dcql_query: QUERY,
      },
      jar: {
        requestUri: `${this.base}/request/${id}`,
        jwtSigner: { method: 'did', didUrl: `${this.key.did}#controller`, alg: 'ES256K' },
        expiresInSeconds: 300,
        additionalJwtPayload: { aud: 'https://self-issued.me/v2' },
      },
    });
    this.requests.set(id, created.jar!.authorizationRequestJwt);
    return { uri: created.authorizationRequest, nonce, state };
  }
}

async function credential(holderDid: string, type: string[]): Promise<string> {
  const issuer = keyOf();
  return createVerifiableCredentialJwt(
    {
      sub: holderDid,
      vc: { '@context': [VC_CONTEXT], type, credentialSubject: { sub: 'demo' } },
    },
    { did: issuer.did, signer: ES256KSigner(hexToBytes(issuer.privateKey)), alg: 'ES256K' },
  );
}

describe('the e2e OpenID4VP wallet against the library’s verifier side', () => {
  const verifier = new LoopbackVerifier();
  const holder = keyOf();
  const wallet = new Oid4vpWallet({ resolver, holder, allowInsecureUrls: true });

  beforeAll(() => verifier.start());
  afterAll(() => verifier.stop());

  it('resolves a signed request by reference and posts vp_token (keyed by the query id) and state', async () => {
    const { uri, nonce, state } = await verifier.request('1');
    const vcJwt = await credential(holder.did, ['VerifiableCredential', 'Profile']);

    const { resolved, answer } = await wallet.logIn(uri, [vcJwt]);
    expect(resolved).toMatchObject({
      clientId: verifier.clientId,
      verifierDid: verifier.key.did,
      signerKid: `${verifier.key.did}#controller`,
      nonce,
      state,
    });
    expect(answer).toEqual({ status: 200, contentType: 'application/json', body: {} });

    const form = verifier.responses.at(-1)!;
    expect([...form.keys()].sort()).toEqual(['state', 'vp_token']);
    expect(form.get('state')).toBe(state);
    const vpToken = JSON.parse(form.get('vp_token')!) as Record<string, string[]>;
    expect(Object.keys(vpToken)).toEqual(['itp_credential']);
    const [vpJwt] = vpToken['itp_credential']!;
    expect(decodeJWT(vpJwt!).header).toMatchObject({
      alg: 'ES256K',
      kid: `${holder.did}#controller`,
    });
    // A verifier's check of the VP: the holder's signature, aud the full client id, the nonce.
    const verified = await verifyPresentation(vpJwt!, resolver, {
      audience: verifier.clientId,
      challenge: nonce,
    });
    expect(verified.issuer).toBe(holder.did);
    expect(verified.payload).toMatchObject({ aud: verifier.clientId, nonce });
    expect(verified.verifiablePresentation.verifiableCredential?.[0]?.proof).toMatchObject({
      jwt: vcJwt,
    });
  });

  it('refuses a request object signed by a key other than the client id’s DID', async () => {
    const { uri } = await verifier.request('2', keyOf().privateKey);
    await expect(wallet.resolve(uri)).rejects.toThrow(/verification of jwt/);
  });

  it('finds no credential for the query when the types do not match', async () => {
    const { uri } = await verifier.request('3');
    const resolved = await wallet.resolve(uri);
    const other = await credential(holder.did, ['VerifiableCredential']);
    expect(() => wallet.select(resolved, [other])).toThrow(/no credential/);
  });
});
