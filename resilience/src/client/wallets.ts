/**
 * The wallet side of OpenID4VP (a login answered from a QR code's `openid4vp://` URI) and of
 * OpenID4VCI (a pre-authorized code redeemed, a credential fetched with a proof of possession),
 * kept to the requests the suite replays: plain HTTP through the gateway, the holder's own keys.
 * The request object is read, not verified (what the suite checks is the verifier's side); the
 * e2e suites drive the OpenWallet Foundation's clients for the full wallet checks.
 */
import { ES256KSigner, hexToBytes } from 'did-jwt';
import { createVerifiablePresentationJwt } from 'did-jwt-vc';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey, type JWK } from 'jose';
import { parseJson, send, type Answer } from './http.js';

/** An answer with its JSON body parsed. */
export interface JsonAnswer extends Answer {
  body: Record<string, unknown> | undefined;
}

const withBody = (answer: Answer): JsonAnswer => ({
  ...answer,
  body: parseJson(answer.text) as Record<string, unknown> | undefined,
});

/** The path and query of `url` on the gateway (the stack names its URLs by PUBLIC_URL). */
function pathOf(url: string): string {
  const { pathname, search } = new URL(url);
  return `${pathname}${search}`;
}

/** What a wallet keeps of an OpenID4VP request object to answer it. */
export interface Oid4vpRequest {
  clientId: string;
  nonce: string;
  state: string;
  /** The response URI's path on the gateway. */
  responsePath: string;
  /** The id of the DCQL credential query the answer is keyed by. */
  queryId: string;
}

/** The claims of a compact JWT, not verified. */
export function jwtClaims(jwt: string): Record<string, unknown> {
  const payload = jwt.split('.')[1];
  if (!payload) throw new Error('not a JWT');
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
}

/** GET the request object named by an `openid4vp://` URI (served once) and read it. */
export async function fetchOid4vpRequest(
  gateway: string,
  openid4vpUri: string,
  ip: string,
): Promise<Oid4vpRequest> {
  const requestUri = new URL(openid4vpUri).searchParams.get('request_uri');
  if (!requestUri) throw new Error(`no request_uri in ${openid4vpUri}`);
  const answer = await send(gateway, pathOf(requestUri), {
    method: 'GET',
    headers: { accept: 'application/oauth-authz-req+jwt', 'x-forwarded-for': ip },
  });
  if (answer.status !== 200) throw new Error(`OpenID4VP request object: HTTP ${answer.status}`);
  const claims = jwtClaims(answer.text.trim());
  const query = (claims.dcql_query as { credentials?: Array<{ id?: string }> } | undefined)
    ?.credentials?.[0]?.id;
  const { client_id: clientId, nonce, state, response_uri: responseUri } = claims;
  if (
    typeof clientId !== 'string' ||
    typeof nonce !== 'string' ||
    typeof state !== 'string' ||
    typeof responseUri !== 'string' ||
    !query
  ) {
    throw new Error(
      'the OpenID4VP request object lacks client_id, nonce, state, response_uri or a DCQL query',
    );
  }
  return {
    clientId,
    nonce,
    state,
    responsePath: pathOf(responseUri),
    queryId: query,
  };
}

/**
 * The form body of the wallet's answer: a VP JWT of `vcJwt` signed ES256K by the did:ethr
 * holder's key (`aud` the client id, the request's nonce), as `vp_token` keyed by the query id,
 * and the request's `state`.
 */
export async function oid4vpAnswer(
  request: Oid4vpRequest,
  holder: { did: string; privateKey: string },
  vcJwt: string,
): Promise<string> {
  const vpJwt = await createVerifiablePresentationJwt(
    {
      vp: {
        '@context': ['https://www.w3.org/2018/credentials/v1'],
        type: ['VerifiablePresentation'],
        verifiableCredential: [vcJwt],
      },
      aud: request.clientId,
      nonce: request.nonce,
    },
    {
      did: holder.did,
      signer: ES256KSigner(hexToBytes(holder.privateKey)),
      alg: 'ES256K',
    },
    { header: { typ: 'JWT', alg: 'ES256K', kid: `${holder.did}#controller` } },
  );
  return new URLSearchParams({
    vp_token: JSON.stringify({ [request.queryId]: [vpJwt] }),
    state: request.state,
  }).toString();
}

/** POSTs a wallet's answer (`direct_post`); the same body again is a replay. */
export async function postOid4vpAnswer(
  gateway: string,
  request: Oid4vpRequest,
  form: string,
  ip: string,
): Promise<JsonAnswer> {
  return withBody(
    await send(gateway, request.responsePath, {
      body: form,
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': ip },
    }),
  );
}

/** The grant type of OpenID4VCI's pre-authorized code flow. */
export const PRE_AUTHORIZED = 'urn:ietf:params:oauth:grant-type:pre-authorized_code';
export const CONFIGURATION_ID = 'itp_profile_jwt_vc_json';

/** An offer as a wallet holds it after reading it (the offer itself is served once). */
export interface CredentialOffer {
  /** The issuer identifier (the proofs' `aud`). */
  issuer: string;
  /** The issuer's path on the gateway (`/v2/did/oid4vci`). */
  issuerPath: string;
  code: string;
}

/**
 * POST /v2/did/credential-offer (the user's bearer, no transaction code) and GET the offer: its
 * pre-authorized code.
 */
export async function takeCredentialOffer(
  gateway: string,
  bearer: string,
  ip: string,
): Promise<CredentialOffer> {
  const made = withBody(
    await send(gateway, '/v2/did/credential-offer', {
      body: JSON.stringify({ txCode: false }),
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${bearer}`,
        'x-forwarded-for': ip,
      },
    }),
  );
  const uri = made.body?.credentialOfferUri;
  if (made.status !== 200 || typeof uri !== 'string') {
    throw new Error(`credential-offer: ${made.status} ${made.text.slice(0, 200)}`);
  }
  const offerUrl = new URL(uri).searchParams.get('credential_offer_uri');
  if (!offerUrl) throw new Error(`no credential_offer_uri in ${uri}`);
  const offer = withBody(
    await send(gateway, pathOf(offerUrl), {
      method: 'GET',
      headers: { 'x-forwarded-for': ip },
    }),
  );
  const issuer = offer.body?.credential_issuer;
  const grant = (
    offer.body?.grants as Record<string, { 'pre-authorized_code'?: string }> | undefined
  )?.[PRE_AUTHORIZED];
  const code = grant?.['pre-authorized_code'];
  if (offer.status !== 200 || typeof issuer !== 'string' || !code) {
    throw new Error(`credential offer: ${offer.status} ${offer.text.slice(0, 200)}`);
  }
  return { issuer, issuerPath: pathOf(issuer), code };
}

/** The token endpoint: the pre-authorized code redeemed (no transaction code). */
export async function redeemPreAuthorizedCode(
  gateway: string,
  offer: CredentialOffer,
  ip: string,
): Promise<JsonAnswer> {
  return withBody(
    await send(gateway, `${offer.issuerPath}/token`, {
      body: new URLSearchParams({
        grant_type: PRE_AUTHORIZED,
        'pre-authorized_code': offer.code,
      }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': ip },
    }),
  );
}

/** A wallet key: ES256 (P-256) and its did:jwk. */
export interface DidJwkKey {
  did: string;
  kid: string;
  privateKey: CryptoKey;
}

export async function newDidJwkKey(): Promise<DidJwkKey> {
  const { publicKey, privateKey } = await generateKeyPair('ES256');
  const { kty, crv, x, y } = (await exportJWK(publicKey)) as JWK;
  const did = `did:jwk:${Buffer.from(JSON.stringify({ kty, crv, x, y })).toString('base64url')}`;
  return { did, kid: `${did}#0`, privateKey };
}

/** A c_nonce of the nonce endpoint. */
export async function credentialNonce(
  gateway: string,
  offer: CredentialOffer,
  ip: string,
): Promise<string> {
  const answer = withBody(
    await send(gateway, `${offer.issuerPath}/nonce`, {
      body: '',
      headers: { 'x-forwarded-for': ip },
    }),
  );
  const nonce = answer.body?.c_nonce;
  if (answer.status !== 200 || typeof nonce !== 'string') {
    throw new Error(`OpenID4VCI nonce: ${answer.status} ${answer.text.slice(0, 200)}`);
  }
  return nonce;
}

/** A proof of possession of `key` for `nonce` (OpenID4VCI 1.0 Appendix F.1). */
export function credentialProof(
  offer: CredentialOffer,
  key: DidJwkKey,
  nonce: string,
): Promise<string> {
  return new SignJWT({ nonce })
    .setProtectedHeader({ typ: 'openid4vci-proof+jwt', alg: 'ES256', kid: key.kid })
    .setAudience(offer.issuer)
    .setIssuedAt()
    .sign(key.privateKey);
}

/** The credential endpoint: one credential for an access token and a proof. */
export async function requestCredential(
  gateway: string,
  offer: CredentialOffer,
  accessToken: string,
  proof: string,
  ip: string,
): Promise<JsonAnswer> {
  return withBody(
    await send(gateway, `${offer.issuerPath}/credential`, {
      body: JSON.stringify({
        credential_configuration_id: CONFIGURATION_ID,
        proofs: { jwt: [proof] },
      }),
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${accessToken}`,
        'x-forwarded-for': ip,
      },
    }),
  );
}
