/**
 * A small OpenID4VP 1.0 wallet for tests and demos (`itp login approve --oid4vp`): resolves an
 * `openid4vp://` request with `@openid4vc/openid4vp`'s `Openid4vpClient` (the request object's
 * did:ethr signature checked against the DID registry on the given chain), picks the holder's
 * credential for the DCQL query, presents it in a VP JWT (the JWT encoding of a W3C VP, as
 * did-jwt-vc makes it: ES256K, signed with the holder's did:ethr key; `aud` the full client id,
 * `nonce` the request's) and posts the response (`direct_post`) to the verifier's response URI.
 *
 * The packages it needs (ethers, did-jwt, the resolvers, the OpenID4VC packages) are imported
 * when a function here first runs, never when itp starts (the bundle keeps them external and
 * loads them with import()): every other command starts without them. The SDK (@itp/client)
 * stays free of them too: WebCrypto has no secp256k1 to sign with.
 */
import { createHash } from 'node:crypto';
import type { Openid4vpAuthorizationRequest, Openid4vpClient } from '@openid4vc/openid4vp';
import type { Jwk, VerifyJwtCallback } from '@openid4vc/oauth2';
import type { Resolver, VerificationMethod } from 'did-resolver';

/** The wallet's packages, imported on first use. */
async function importLibraries() {
  const [openid4vp, utils, didJwt, didResolver, ethers, ethrDidResolver] = await Promise.all([
    import('@openid4vc/openid4vp'),
    import('@openid4vc/utils'),
    import('did-jwt'),
    import('did-resolver'),
    import('ethers'),
    import('ethr-did-resolver'),
  ]);
  return { openid4vp, utils, didJwt, didResolver, ethers, ethrDidResolver };
}
type Libraries = Awaited<ReturnType<typeof importLibraries>>;
let loading: Promise<Libraries> | undefined;
const libraries = (): Promise<Libraries> => (loading ??= importLibraries());

/** Where did:ethr DIDs are resolved: an Ethereum JSON-RPC URL and its ERC-1056 registry. */
export interface DidChain {
  rpcUrl: string;
  registry: string;
  /** The chain's id (ethr-did-resolver needs it: ethers refuses a network that changes). */
  chainId: number;
}

/** A credential the holder may present: its compact JWT and what the query matches on. */
export interface HeldCredential {
  jwt: string;
  /** `vc.type` of the JWT (e.g. VerifiableCredential, Profile). */
  types: string[];
  /** `vc.credentialSubject.id` of the JWT. */
  subject: string | undefined;
}

export interface ApproveOptions {
  /** The holder's did:ethr key: a hex secp256k1 private key (with or without 0x). */
  privateKey: string;
  credentials: HeldCredential[];
  chain: DidChain;
}

export type Openid4vpOutcome =
  | {
      approved: true;
      clientId: string;
      responseUri: string;
      holder: string;
      credentialQueryId: string;
      status: number;
    }
  | {
      approved: false;
      clientId: string;
      responseUri: string;
      holder: string;
      credentialQueryId: string;
      status: number;
      error: string;
      errorDescription: string | undefined;
    };

/** Why the wallet would not answer a request (before anything was posted). */
export class Openid4vpWalletError extends Error {
  override readonly name = 'Openid4vpWalletError';
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);
const isLoopbackHttp = (url: URL) => url.protocol === 'http:' && LOOPBACK.has(url.hostname);

/** The query's credential ids (DCQL) that ask for a `jwt_vc_json` credential of these types. */
interface CredentialQuery {
  id: string;
  format: string;
  meta?: { type_values?: string[][] };
}

function credentialQueries(dcql: unknown): CredentialQuery[] {
  const credentials = (dcql as { credentials?: unknown } | undefined)?.credentials;
  return Array.isArray(credentials) ? (credentials as CredentialQuery[]) : [];
}

/**
 * The first query of the request a held credential satisfies: format `jwt_vc_json`, issued to the
 * holder, and (when the query names `type_values`) carrying every type of one of its sets.
 */
export function pickCredential(
  dcql: unknown,
  held: HeldCredential[],
  holder: string,
): { queryId: string; credential: HeldCredential } {
  const queries = credentialQueries(dcql);
  if (queries.length === 0) {
    throw new Openid4vpWalletError('the request has no DCQL credential query', 'invalid_request');
  }
  for (const query of queries) {
    if (query.format !== 'jwt_vc_json') continue;
    const typeSets = query.meta?.type_values;
    const credential = held.find(
      (vc) =>
        vc.subject?.toLowerCase() === holder.toLowerCase() &&
        (!typeSets || typeSets.some((set) => set.every((type) => vc.types.includes(type)))),
    );
    if (credential) return { queryId: query.id, credential };
  }
  throw new Openid4vpWalletError(
    `no given credential issued to ${holder} matches the request's query ` +
      `(${queries.map((q) => `${q.id}: ${q.format}`).join(', ')})`,
    'no_matching_credential',
  );
}

/** A compact VC JWT as the wallet holds it. */
export async function heldCredential(jwt: string): Promise<HeldCredential> {
  const { payload } = (await libraries()).didJwt.decodeJWT(jwt);
  const vc = (payload as { vc?: { type?: unknown; credentialSubject?: { id?: unknown } } }).vc;
  const types = Array.isArray(vc?.type) ? vc.type.map(String) : [];
  const subject =
    typeof vc?.credentialSubject?.id === 'string' ? vc.credentialSubject.id : payload.sub;
  return { jwt, types, subject };
}

const base64urlToHex = (value: string) => `0x${Buffer.from(value, 'base64url').toString('hex')}`;

/** The address a verification method stands for (did:ethr: `blockchainAccountId`, or its key). */
function addressOf(
  { getAddress, computeAddress }: Libraries['ethers'],
  method: VerificationMethod,
): string | undefined {
  if (method.blockchainAccountId)
    return getAddress(method.blockchainAccountId.split(':').at(-1) ?? '');
  if (method.ethereumAddress) return getAddress(method.ethereumAddress);
  if (method.publicKeyHex) return computeAddress(`0x${method.publicKeyHex.replace(/^0x/, '')}`);
  return undefined;
}

/**
 * The secp256k1 public key (as a JWK) that made an ES256K signature: recovered from the
 * signature (did:ethr's controller is an address, not a key) and matched to `address`.
 */
function signerJwk(
  { sha256, Signature, SigningKey, computeAddress }: Libraries['ethers'],
  compact: string,
  address: string,
): Jwk | undefined {
  const [header, payload, signature] = compact.split('.') as [string, string, string];
  const digest = sha256(Buffer.from(`${header}.${payload}`));
  const rs = base64urlToHex(signature);
  if (rs.length !== 130) return undefined;
  for (const v of [27, 28]) {
    const sig = Signature.from({ r: rs.slice(0, 66), s: `0x${rs.slice(66)}`, v });
    const publicKey = SigningKey.recoverPublicKey(digest, sig);
    if (computeAddress(publicKey) !== address) continue;
    const bytes = Buffer.from(publicKey.slice(4), 'hex');
    return {
      kty: 'EC',
      crv: 'secp256k1',
      x: bytes.subarray(0, 32).toString('base64url'),
      y: bytes.subarray(32).toString('base64url'),
    };
  }
  return undefined;
}

/**
 * The request object's signature check: its `kid` DID URL resolved through the registry, the
 * signature made by that verification method (or, for a bare DID, by any of the DID's assertion
 * or authentication methods).
 */
function verifyDidJwt(libs: Libraries, resolver: Resolver): VerifyJwtCallback {
  return async (signer, jwt) => {
    if (signer.method !== 'did') return { verified: false };
    const [did, fragment] = signer.didUrl.split('#') as [string, string | undefined];
    const resolution = await resolver.resolve(did);
    const doc = resolution.didDocument;
    if (!doc) return { verified: false };
    const allowed = new Set(
      [...(doc.assertionMethod ?? []), ...(doc.authentication ?? [])].map((entry) =>
        typeof entry === 'string' ? entry : entry.id,
      ),
    );
    const methods = (doc.verificationMethod ?? []).filter(
      (method) =>
        allowed.has(method.id) && (fragment === undefined || method.id === `${did}#${fragment}`),
    );
    try {
      const method = libs.didJwt.verifyJWS(jwt.compact, methods);
      const address = addressOf(libs.ethers, method);
      const jwk = address === undefined ? undefined : signerJwk(libs.ethers, jwt.compact, address);
      return jwk ? { verified: true, signerJwk: jwk } : { verified: false };
    } catch {
      return { verified: false };
    }
  };
}

const unsupported = (what: string) => (): never => {
  throw new Openid4vpWalletError(`this wallet does not support ${what}`, 'invalid_request');
};

const hash = (data: Uint8Array, alg: string) =>
  new Uint8Array(createHash(alg.replace('-', '')).update(data).digest());

/** Refuses a verifier URL that is neither https nor http on this machine's loopback. */
function checkUrl(raw: string | undefined, what: string): URL {
  let url: URL;
  try {
    url = new URL(raw ?? '');
  } catch {
    throw new Openid4vpWalletError(`the request's ${what} is not a URL`, 'invalid_request');
  }
  if (url.protocol !== 'https:' && !isLoopbackHttp(url)) {
    throw new Openid4vpWalletError(
      `the request's ${what} must be https (or http on loopback): ${raw}`,
      'invalid_request',
    );
  }
  return url;
}

/** The `request_uri` parameter of an `openid4vp://?…` URI, if any. */
function requestUriOf(uri: string): string | undefined {
  try {
    return new URL(uri).searchParams.get('request_uri') ?? undefined;
  } catch {
    throw new Openid4vpWalletError('not an OpenID4VP request: not a URI', 'invalid_request');
  }
}

/** The holder's did:ethr DID of a hex private key. */
export async function holderDid(privateKey: string): Promise<string> {
  const hex = privateKey.trim().replace(/^0x/i, '');
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) {
    throw new Openid4vpWalletError(
      'the holder key must be a secp256k1 private key: 64 hex digits',
      'invalid_key',
    );
  }
  return `did:ethr:${(await libraries()).ethers.computeAddress(`0x${hex}`)}`;
}

/**
 * Answers an `openid4vp://` request as the holder of `privateKey`: resolve and verify the
 * request, present the matching credential, post the response. The verifier's answer decides the
 * outcome (200: approved; otherwise its `error` / `error_description`).
 */
export async function approveWithOpenid4vp(
  uri: string,
  options: ApproveOptions,
): Promise<Openid4vpOutcome> {
  const holder = await holderDid(options.privateKey);
  const libs = await libraries();
  const resolver = new libs.didResolver.Resolver(
    libs.ethrDidResolver.getResolver({
      networks: [
        {
          name: 'mainnet',
          chainId: options.chain.chainId,
          rpcUrl: options.chain.rpcUrl,
          registry: options.chain.registry,
        },
      ],
    }),
  );
  const client = new libs.openid4vp.Openid4vpClient({
    callbacks: {
      verifyJwt: verifyDidJwt(libs, resolver),
      hash,
      fetch,
      // Neither encrypted requests nor JARM responses: only `direct_post` is answered.
      signJwt: unsupported('signing JARM responses'),
      decryptJwe: unsupported('encrypted request objects'),
      encryptJwe: unsupported('encrypted responses (direct_post.jwt)'),
    },
  });

  // The library refuses http URLs; a verifier on this machine's loopback (tests, npm start) is
  // allowed, anything else must be https (checked below for the response URI too).
  const requestUri = requestUriOf(uri);
  libs.utils.setGlobalConfig({
    allowInsecureUrls:
      requestUri !== undefined && isLoopbackHttp(checkUrl(requestUri, 'request_uri')),
  });
  let parsed: ReturnType<Openid4vpClient['parseOpenid4vpAuthorizationRequest']>;
  try {
    parsed = client.parseOpenid4vpAuthorizationRequest({ authorizationRequest: uri });
  } catch (err) {
    throw new Openid4vpWalletError(
      `not an OpenID4VP request: ${(err as Error).message}`,
      'invalid_request',
    );
  }

  let request: Openid4vpAuthorizationRequest;
  let clientId: string;
  let dcql: unknown;
  try {
    const resolved = await client.resolveOpenId4vpAuthorizationRequest({
      authorizationRequestPayload: parsed.params,
    });
    if (!resolved.jar) {
      throw new Openid4vpWalletError(
        'the request is not signed (no request object)',
        'invalid_request',
      );
    }
    request = resolved.authorizationRequestPayload as Openid4vpAuthorizationRequest;
    clientId = request.client_id;
    dcql = resolved.dcql?.query;
  } catch (err) {
    if (err instanceof Openid4vpWalletError) throw err;
    throw new Openid4vpWalletError(
      `the request does not resolve or verify: ${(err as Error).message}`,
      'invalid_request',
    );
  }
  if (request.response_mode !== 'direct_post') {
    throw new Openid4vpWalletError(
      `response_mode ${String(request.response_mode)} is not supported (direct_post only)`,
      'invalid_request',
    );
  }
  const responseUri = checkUrl(request.response_uri, 'response_uri').toString();
  const { queryId, credential } = pickCredential(dcql, options.credentials, holder);

  const key = options.privateKey.trim().replace(/^0x/i, '');
  // A W3C VP in its JWT encoding (VC Data Model 1.1 §6.3.1): `iss` the holder, the VP in `vp`.
  const vpJwt = await libs.didJwt.createJWT(
    {
      vp: {
        '@context': ['https://www.w3.org/2018/credentials/v1'],
        type: ['VerifiablePresentation'],
        holder,
        verifiableCredential: [credential.jwt],
      },
      aud: clientId,
      nonce: request.nonce,
    },
    {
      issuer: holder,
      signer: libs.didJwt.ES256KSigner(libs.didJwt.hexToBytes(key)),
      alg: 'ES256K',
    },
    { alg: 'ES256K', typ: 'JWT', kid: `${holder}#controller` },
  );

  const response = await client.createOpenid4vpAuthorizationResponse({
    authorizationRequestPayload: request,
    authorizationResponsePayload: { vp_token: { [queryId]: [vpJwt] } },
  });
  const { response: answer } = await client.submitOpenid4vpAuthorizationResponse({
    authorizationRequestPayload: request,
    authorizationResponsePayload: response.authorizationResponsePayload,
  });
  const common = {
    clientId,
    responseUri,
    holder,
    credentialQueryId: queryId,
    status: answer.status,
  };
  if (answer.ok) return { approved: true, ...common };
  const body = (await answer.json().catch(() => ({}))) as {
    error?: unknown;
    error_description?: unknown;
  };
  return {
    approved: false,
    ...common,
    error: typeof body.error === 'string' ? body.error : `http_${answer.status}`,
    errorDescription:
      typeof body.error_description === 'string' ? body.error_description : undefined,
  };
}
