/**
 * A third-party OpenID4VP 1.0 wallet: the OpenWallet Foundation's `Openid4vpClient`
 * (@openid4vc/openid4vp) resolves the request and builds and submits the response, `dcql` picks
 * the credential, did-jwt-vc (a did:ethr holder) or jose (a did:jwk holder, ES256) signs the
 * presentation with the holder's own key, and the request
 * object's signature is checked with did-jwt over a did:ethr resolver. Nothing of this platform's
 * code is involved, so what passes here passes with any wallet built on those libraries.
 *
 * No jest in here: the e2e suites and the demo's browser test drive the same wallet.
 */
import { createHash } from 'node:crypto';
import type { HashAlgorithm, Jwk, JwtSigner } from '@openid4vc/oauth2';
import {
  Openid4vpClient,
  isOpenid4vpAuthorizationRequestDcApi,
  type Openid4vpAuthorizationRequest,
  type ResolvedOpenid4vpAuthorizationRequest,
} from '@openid4vc/openid4vp';
import { setGlobalConfig } from '@openid4vc/utils';
import { DcqlQuery, type DcqlCredential } from 'dcql';
import { ES256KSigner, decodeJWT, hexToBytes, verifyJWS } from 'did-jwt';
import { createVerifiablePresentationJwt } from 'did-jwt-vc';
import type { Resolvable, VerificationMethod } from 'did-resolver';
import { Signature, SigningKey, computeAddress, getBytes, hexlify } from 'ethers';
import { SignJWT, type CryptoKey } from 'jose';

const VC_CONTEXT = 'https://www.w3.org/2018/credentials/v1';

/** A did:ethr holder: its DID and the private key of that DID's controller address (0x hex). */
export interface EthrHolder {
  did: string;
  privateKey: string;
}

/**
 * A holder of a did:jwk on a P-256 key of its own (jose): presentations are signed ES256 by
 * jose's SignJWT with `privateKey`, header `kid` the key's DID URL (`<did>#0`).
 */
export interface JwkHolder {
  did: string;
  kid: string;
  privateKey: CryptoKey;
}

/** The holder: a did:ethr controller key or a did:jwk P-256 key. */
export type Holder = EthrHolder | JwkHolder;

const isJwkHolder = (holder: Holder): holder is JwkHolder => typeof holder.privateKey !== 'string';

/** What the wallet read from a verified request object, ready to answer. */
export interface ResolvedLoginRequest {
  /** The request object's claims, verified (signature, client id, response mode). */
  request: Openid4vpAuthorizationRequest;
  /** The full client id, prefix included: the `aud` of the presentation (OpenID4VP §14.8). */
  clientId: string;
  /** The verifier's DID: the client id without its `decentralized_identifier:` prefix. */
  verifierDid: string;
  /** The DID URL (`kid`) of the key that signed the request object. */
  signerKid: string;
  nonce: string;
  state: string;
  responseUri: string;
  /** The DCQL query as the request carries it (parsed and validated by `dcql`). */
  dcqlQuery: DcqlQuery.Output;
}

/** The verifier's answer to the response POST. */
export interface SubmitAnswer {
  status: number;
  contentType: string | null;
  /** The JSON body, if any. */
  body: unknown;
}

export interface Oid4vpWalletOptions {
  /** A did:ethr resolver of the stack's chain (`thirdPartyResolver` in did-ethr.ts). */
  resolver: Resolvable;
  holder: Holder;
  /**
   * Allow `http://` request and response URIs (the library refuses them by default). A
   * development stack on loopback serves plain HTTP; production is https. This sets the
   * library's process-wide config.
   */
  allowInsecureUrls?: boolean;
}

const base64url = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64url');

/**
 * The public key that made an ES256K JWS (r || s, no recovery byte), as a JWK: the one of the
 * two candidate keys whose Ethereum address is `address`.
 */
function recoverSignerJwk(compact: string, address: string): Jwk {
  const [header, payload, signature] = compact.split('.') as [string, string, string];
  const digest = createHash('sha256').update(`${header}.${payload}`).digest();
  const rs = Buffer.from(signature, 'base64url');
  for (const yParity of [0, 1] as const) {
    const publicKey = SigningKey.recoverPublicKey(
      digest,
      Signature.from({
        r: hexlify(rs.subarray(0, 32)),
        s: hexlify(rs.subarray(32, 64)),
        yParity,
      }),
    );
    if (computeAddress(publicKey).toLowerCase() === address.toLowerCase()) {
      const point = getBytes(publicKey); // 0x04 || x || y
      return {
        kty: 'EC',
        crv: 'secp256k1',
        x: base64url(point.subarray(1, 33)),
        y: base64url(point.subarray(33, 65)),
      };
    }
  }
  throw new Error('the signature does not recover to the verification method’s address');
}

/** The Ethereum address a did:ethr verification method names (CAIP-10 `eip155:<chain>:<addr>`). */
function addressOf(method: VerificationMethod): string {
  const address = method.blockchainAccountId?.split(':').pop() ?? method.ethereumAddress;
  if (!address) throw new Error(`verification method ${method.id} names no address`);
  return address;
}

/**
 * The library's `verifyJwt` callback: a JWT signed by a DID (`{ method: 'did', didUrl }`) is
 * verified against the verification method `didUrl` of the resolved DID document, which must be
 * one the DID uses to assert (assertionMethod) or authenticate.
 */
export function verifyDidSignedJwt(resolver: Resolvable) {
  return async (
    signer: JwtSigner,
    jwt: { compact: string },
  ): Promise<{ verified: true; signerJwk: Jwk } | { verified: false }> => {
    if (signer.method !== 'did') return { verified: false };
    const [did] = signer.didUrl.split('#') as [string];
    const { didDocument } = await resolver.resolve(did);
    const method = didDocument?.verificationMethod?.find((vm) => vm.id === signer.didUrl);
    const references = [
      ...(didDocument?.assertionMethod ?? []),
      ...(didDocument?.authentication ?? []),
    ].map((ref) => (typeof ref === 'string' ? ref : ref.id));
    if (!method || !references.includes(method.id)) return { verified: false };
    try {
      verifyJWS(jwt.compact, method);
      return { verified: true, signerJwk: recoverSignerJwk(jwt.compact, addressOf(method)) };
    } catch {
      return { verified: false };
    }
  };
}

const hash = (data: Uint8Array, alg: HashAlgorithm): Uint8Array =>
  createHash(alg.replace('-', '')).update(data).digest();

const unsupported = (what: string) => (): never => {
  throw new Error(`this wallet does not ${what}`);
};

/** The claims of a `jwt_vc_json` credential as `dcql` matches them (its `vc` claim). */
function dcqlCredentialOf(vcJwt: string): DcqlCredential {
  const { payload } = decodeJWT(vcJwt);
  const vc = payload['vc'] as { type?: string[]; credentialSubject?: Record<string, unknown> };
  return {
    credential_format: 'jwt_vc_json',
    type: vc.type ?? [],
    claims: vc as Record<string, never>,
    cryptographic_holder_binding: true,
  };
}

/** A wallet holding one key (its holder DID's controller) and answering OpenID4VP requests. */
export class Oid4vpWallet {
  private readonly client: Openid4vpClient;

  constructor(private readonly options: Oid4vpWalletOptions) {
    if (options.allowInsecureUrls) setGlobalConfig({ allowInsecureUrls: true });
    this.client = new Openid4vpClient({
      callbacks: {
        verifyJwt: verifyDidSignedJwt(options.resolver),
        hash,
        signJwt: unsupported('sign JARM responses'),
        encryptJwe: unsupported('encrypt responses'),
        decryptJwe: unsupported('decrypt request objects'),
      },
    });
  }

  /**
   * Takes an `openid4vp://` URI (the QR code's content), fetches the request object from its
   * `request_uri` and verifies it: signature through the DID in the client id, the client id
   * equal to the URI's, the response mode, the DCQL query.
   */
  async resolve(openid4vpUri: string): Promise<ResolvedLoginRequest> {
    const parsed = this.client.parseOpenid4vpAuthorizationRequest({
      authorizationRequest: openid4vpUri,
    });
    const resolved: ResolvedOpenid4vpAuthorizationRequest =
      await this.client.resolveOpenId4vpAuthorizationRequest({
        authorizationRequestPayload: parsed.params,
      });
    const request = resolved.authorizationRequestPayload;
    if (isOpenid4vpAuthorizationRequestDcApi(request)) {
      throw new Error('a Digital Credentials API request where a cross-device one was expected');
    }
    if (resolved.client.prefix !== 'decentralized_identifier') {
      throw new Error(`client id prefix ${resolved.client.prefix}, not decentralized_identifier`);
    }
    const { client_id: clientId, nonce, state, response_uri: responseUri } = request;
    if (!clientId || !state || !responseUri) {
      throw new Error('the request lacks client_id, state or response_uri');
    }
    if (!resolved.dcql) throw new Error('the request has no dcql_query');
    const dcqlQuery = DcqlQuery.parse(resolved.dcql.query as DcqlQuery.Input);
    DcqlQuery.validate(dcqlQuery);
    return {
      request,
      clientId,
      verifierDid: resolved.client.identifier,
      signerKid: resolved.client.didUrl,
      nonce,
      state,
      responseUri,
      dcqlQuery,
    };
  }

  /**
   * The credential query the presentation answers and the credential that satisfies it, chosen
   * by `dcql` among `vcJwts`; throws when none does.
   */
  select(resolved: ResolvedLoginRequest, vcJwts: string[]): { queryId: string; vcJwt: string } {
    const result = DcqlQuery.query(resolved.dcqlQuery, vcJwts.map(dcqlCredentialOf));
    if (!result.can_be_satisfied) throw new Error('no credential satisfies the DCQL query');
    for (const query of resolved.dcqlQuery.credentials) {
      const match = result.credential_matches[query.id];
      if (match?.success) {
        return {
          queryId: query.id,
          vcJwt: vcJwts[match.valid_credentials[0].input_credential_index]!,
        };
      }
    }
    throw new Error('no credential query matched');
  }

  /**
   * A VP JWT of `vcJwt`, signed by the holder's key (did:ethr: ES256K by did-jwt-vc, `kid` the
   * DID's controller; did:jwk: ES256 by jose, `kid` the holder's), bound to this request: `aud`
   * the full client id (OpenID4VP §14.8) unless `aud` says otherwise, `nonce` the request's.
   */
  async presentation(
    resolved: ResolvedLoginRequest,
    vcJwt: string,
    overrides: { aud?: string; nonce?: string } = {},
  ): Promise<string> {
    const { holder } = this.options;
    const vp = {
      '@context': [VC_CONTEXT],
      type: ['VerifiablePresentation'],
      verifiableCredential: [vcJwt],
    };
    const aud = overrides.aud ?? resolved.clientId;
    const nonce = overrides.nonce ?? resolved.nonce;
    if (isJwkHolder(holder)) {
      return new SignJWT({ vp, nonce })
        .setProtectedHeader({ typ: 'JWT', alg: 'ES256', kid: holder.kid })
        .setIssuer(holder.did)
        .setAudience(aud)
        .setNotBefore(Math.floor(Date.now() / 1000))
        .sign(holder.privateKey);
    }
    return createVerifiablePresentationJwt(
      { vp, aud, nonce },
      { did: holder.did, signer: ES256KSigner(hexToBytes(holder.privateKey)), alg: 'ES256K' },
      { header: { typ: 'JWT', alg: 'ES256K', kid: `${holder.did}#controller` } },
    );
  }

  /**
   * Builds the authorization response with the library (`vp_token` keyed by the credential
   * query id, the request's `state` added by the library) and POSTs it form-encoded to the
   * request's `response_uri` (`direct_post`).
   */
  async submit(
    resolved: ResolvedLoginRequest,
    queryId: string,
    vpJwt: string,
  ): Promise<SubmitAnswer> {
    const { authorizationResponsePayload } = await this.client.createOpenid4vpAuthorizationResponse(
      {
        authorizationRequestPayload: resolved.request,
        authorizationResponsePayload: { vp_token: { [queryId]: [vpJwt] } },
      },
    );
    const { response } = await this.client.submitOpenid4vpAuthorizationResponse({
      authorizationRequestPayload: resolved.request,
      authorizationResponsePayload,
    });
    const text = await response.text();
    return {
      status: response.status,
      contentType: response.headers.get('content-type'),
      body: text ? (JSON.parse(text) as unknown) : undefined,
    };
  }

  /** The whole wallet side of a login: resolve the QR code's URI, pick, present, submit. */
  async logIn(
    openid4vpUri: string,
    vcJwts: string[],
  ): Promise<{ resolved: ResolvedLoginRequest; answer: SubmitAnswer }> {
    const resolved = await this.resolve(openid4vpUri);
    const { queryId, vcJwt } = this.select(resolved, vcJwts);
    const answer = await this.submit(resolved, queryId, await this.presentation(resolved, vcJwt));
    return { resolved, answer };
  }
}
