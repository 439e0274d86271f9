/**
 * A verifier for the wallet's specs: the library's own verifier side (`Openid4vpVerifier` of
 * @openid4vc/openid4vp) makes and signs request objects, a loopback server serves them and keeps
 * what the wallet posts. DID documents come from a stub resolver shaped as ethr-did-resolver
 * shapes a did:ethr address DID with no registry changes.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Openid4vpVerifier } from '@openid4vc/openid4vp';
import { setGlobalConfig } from '@openid4vc/utils';
import { ES256KSigner, createJWS, hexToBytes, type JWTHeader } from 'did-jwt';
import { createVerifiableCredentialJwt } from 'did-jwt-vc';
import type { DIDResolutionResult, Resolvable } from 'did-resolver';
import { Wallet } from 'ethers';

const VC_CONTEXT = 'https://www.w3.org/2018/credentials/v1';
export const PROFILE_QUERY = {
  credentials: [
    {
      id: 'itp_credential',
      format: 'jwt_vc_json',
      meta: { type_values: [['VerifiableCredential', 'Profile']] },
    },
  ],
};

/** did:ethr:<address> documents as ethr-did-resolver answers them for a DID with no changes. */
export const stubEthrResolver: Resolvable = {
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

/** A new did:ethr key: its DID and private key (0x hex). */
export const newEthrKey = () => {
  const key = Wallet.createRandom();
  return { did: `did:ethr:${key.address}`, privateKey: key.privateKey };
};

/** A VC JWT of `type` issued (by a new did:ethr issuer) to `holderDid` (its `sub`). */
export async function credentialFor(holderDid: string, type: string[]): Promise<string> {
  const issuer = newEthrKey();
  return createVerifiableCredentialJwt(
    {
      sub: holderDid,
      vc: { '@context': [VC_CONTEXT], type, credentialSubject: { sub: 'demo' } },
    },
    { did: issuer.did, signer: ES256KSigner(hexToBytes(issuer.privateKey)), alg: 'ES256K' },
  );
}

/** A verifier: the library makes and signs the request object, a loopback server serves it. */
export class LoopbackVerifier {
  readonly key = newEthrKey();
  readonly clientId = `decentralized_identifier:${this.key.did}`;
  /** The request object served at /request/<id>, and the form bodies posted to /response/<id>. */
  readonly requests = new Map<string, string>();
  readonly responses: URLSearchParams[] = [];
  /** What /response/<id> answers. */
  answer: { status: number; body: string } = { status: 200, body: '{}' };
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
        res.writeHead(this.answer.status, { 'content-type': 'application/json' });
        res.end(this.answer.body);
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

  /** The response URI of request `id`. */
  responseUri(id: string): string {
    return `${this.base}/response/${id}`;
  }

  /**
   * A request by reference, signed with `signingKey` (the verifier DID's key unless given);
   * `payload` replaces parts of the authorization request (e.g. its response mode).
   */
  async request(
    id: string,
    signingKey = this.key.privateKey,
    payload: Record<string, unknown> = {},
  ): Promise<{ uri: string; nonce: string; state: string }> {
    const verifier = new Openid4vpVerifier({
      callbacks: {
        signJwt: async (_signer, { header, payload: claims }) => ({
          // did-jwt types `typ` as "JWT" only; this header's is "oauth-authz-req+jwt".
          jwt: await createJWS(
            claims,
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
    // http URLs on loopback for making the request: the wallet decides for itself (resolve).
    setGlobalConfig({ allowInsecureUrls: true });
    const created = await verifier.createOpenId4vpAuthorizationRequest({
      authorizationRequestPayload: {
        response_type: 'vp_token',
        client_id: this.clientId,
        response_mode: 'direct_post',
        response_uri: this.responseUri(id),
        nonce,
        state,
        dcql_query: PROFILE_QUERY,
        ...payload,
      } as never,
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
