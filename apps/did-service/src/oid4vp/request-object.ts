import { createOpenid4vpAuthorizationRequest } from '@openid4vc/openid4vp';
import type { JwtHeader, JwtPayload, JwtSigner } from '@openid4vc/oauth2';
import { BadRequestError } from '@itp/errors';
import { secp256k1PublicJwk } from '@itp/wallet';
import type { Oid4vpRequestObjectRequest, Oid4vpRequestObjectResult } from '@itp/schemas';
import type { DidAgent } from '../agent/create-did-agent.js';
import type { ServiceDids } from '../dids/service-dids.js';
import {
  DID_CLIENT_ID_PREFIX,
  SELF_ISSUED_AUDIENCE,
  itpClientMetadata,
  itpLoginDcqlQuery,
} from './oid4vp-constants.js';

export interface Oid4vpRequestDeps {
  agent: DidAgent;
  serviceDids: ServiceDids;
  /**
   * http response URIs allowed (development / test only; the library's global setting
   * `allowInsecureUrls` is set to match when the app is wired).
   */
  allowInsecureUrls: boolean;
  /**
   * The `vct` of this service's Profile SD-JWT VC (`<PUBLIC_URL>/v2/did/oid4vci/vct/profile`):
   * the request asks for it as the other option (auth-service checks it). Absent: jwt_vc_json only.
   */
  sdJwtProfileVct?: string;
  now?: () => number;
}

const DEFAULT_EXPIRES_IN_SECONDS = 300;

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * The signed request object (JAR) of an OpenID4VP 1.0 authorization request from this service's
 * verifier DID (the first of GET /v2/did/verifiers): client id `decentralized_identifier:<DID>`,
 * `response_type` vp_token, `response_mode` direct_post to `responseUri`, the caller's `nonce` and
 * `state`, `iss` the verifier DID (RFC 9101 §4; the client id's identifier), `aud` https://self-issued.me/v2, `client_metadata`
 * with `vp_formats_supported` (jwt_vc_json, dc+sd-jwt, and the algorithms accepted), and a DCQL
 * query for one credential: a jwt_vc_json one of the types create-vc issues, or this service's
 * Profile SD-JWT VC (`credential_sets`). Built by @openid4vc/openid4vp; signed ES256K (header `typ`
 * oauth-authz-req+jwt, `kid` <DID>#controller) with the verifier DID's key in the Veramo KMS.
 * DCQL's `trusted_authorities` has no kind for DIDs, so the issuer is checked when the answer is
 * verified (verify-response), not asked for here.
 */
export async function createRequestObject(
  deps: Oid4vpRequestDeps,
  request: Oid4vpRequestObjectRequest,
): Promise<Oid4vpRequestObjectResult> {
  const responseUri = new URL(request.responseUri);
  if (responseUri.protocol !== 'https:' && !deps.allowInsecureUrls) {
    throw new BadRequestError('responseUri must be an https URL');
  }
  const verifier = deps.serviceDids.verifiers[0];
  if (!verifier) throw new Error('did-service has no verifier DID');
  const identifier = await deps.agent.didManagerGet({ did: verifier.did });
  const key = identifier.keys.find((k) => k.kid === identifier.controllerKeyId);
  if (!key) throw new Error(`verifier DID ${verifier.did} has no controller key`);
  const signerJwk = await secp256k1PublicJwk(key.publicKeyHex);
  const clientId = `${DID_CLIENT_ID_PREFIX}${verifier.did}`;
  const jwtSigner: JwtSigner = {
    method: 'did',
    didUrl: `${verifier.did}#controller`,
    alg: 'ES256K',
  };
  const signJwt = async (_signer: JwtSigner, jwt: { header: JwtHeader; payload: JwtPayload }) => {
    const signingInput = `${base64url(jwt.header)}.${base64url(jwt.payload)}`;
    const signature = await deps.agent.keyManagerSign({
      keyRef: key.kid,
      data: signingInput,
      algorithm: 'ES256K',
    });
    return { jwt: `${signingInput}.${signature}`, signerJwk };
  };
  const now = new Date(deps.now?.() ?? Date.now());
  const created = await createOpenid4vpAuthorizationRequest({
    authorizationRequestPayload: {
      client_id: clientId,
      response_type: 'vp_token',
      response_mode: 'direct_post',
      response_uri: request.responseUri,
      nonce: request.nonce,
      state: request.state,
      dcql_query: itpLoginDcqlQuery(deps.sdJwtProfileVct),
      client_metadata: itpClientMetadata(deps.sdJwtProfileVct !== undefined),
    },
    jar: {
      jwtSigner,
      expiresInSeconds: request.expiresInSeconds ?? DEFAULT_EXPIRES_IN_SECONDS,
      // Without it the library would put the request_uri (which only auth-service knows) there.
      // `iss` (RFC 9101 §4): the verifier DID, the identifier of the client id. Not the whole
      // client id: @openid4vc's wallet refuses a DID-signed JAR whose `kid` does not start with
      // `iss`.
      additionalJwtPayload: { iss: verifier.did, aud: SELF_ISSUED_AUDIENCE },
    },
    callbacks: {
      signJwt,
      encryptJwe: () => {
        throw new Error('request objects are not encrypted');
      },
    },
    now,
  });
  const requestObject = created.jar?.authorizationRequestJwt;
  if (!requestObject) throw new Error('the library made no request object');
  return { clientId, requestObject };
}
