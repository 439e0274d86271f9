import type { HttpTransport } from '../http/http-transport.js';
import { restCall } from '../http/rest-call.js';
import type {
  CallOptions,
  CredentialOfferResult,
  DidApi,
  DidRecord,
  IssuedCredentialsResponse,
  RevokeVcRequest,
  RevokeVcResult,
  SdJwtToRevoke,
  ServiceDidEntry,
  VerifiableCredential,
  VerifiablePresentation,
  VerificationResult,
} from '../types.js';

const DID = '/v2/did';

/** revoke-vc's body: `{ sdJwt }` as given, a string as `{ jwt }`, a VC object as `{ vc }`. */
function revokeVcRequest(
  credential: VerifiableCredential | string | SdJwtToRevoke,
): RevokeVcRequest {
  if (typeof credential === 'string') return { jwt: credential };
  if ('sdJwt' in credential && typeof credential.sdJwt === 'string') {
    return { sdJwt: credential.sdJwt };
  }
  return { vc: credential as VerifiableCredential };
}

/**
 * /v2/did: DIDs, VCs and VPs. The bearer JWT (the call's, else the client's) goes with every POST
 * that takes one: create-vc, create-vp and revoke-vc need it, create-did binds the DID to its user
 * with it.
 */
export function didApi(http: HttpTransport): DidApi {
  const post = <T>(path: string, body: unknown, call: CallOptions | undefined, bearer: boolean) =>
    restCall<T>(http, { method: 'POST', path: `${DID}${path}`, body, bearer }, call);
  const get = <T>(path: string, call?: CallOptions) =>
    restCall<T>(http, { method: 'GET', path: `${DID}${path}` }, call);

  return {
    createDid: (params, call) => post<DidRecord>('/create-did', params, call, true),
    createVc: ({ holder, issuer, userInfo }, call) =>
      post<VerifiableCredential>(
        '/create-vc',
        { holder, issuer, userInfo: userInfo ?? {} },
        call,
        true,
      ),
    verifyVc: (vc, call) => post<VerificationResult>('/verify-vc', vc, call, false),
    revokeVc: (credential, call) =>
      post<RevokeVcResult>('/revoke-vc', revokeVcRequest(credential), call, true),
    createVp: (params, call) => post<VerifiablePresentation>('/create-vp', params, call, true),
    verifyVp: (vp, call) => post<VerificationResult>('/verify-vp', vp, call, false),
    issuers: (call) => get<ServiceDidEntry[]>('/issuers', call),
    verifiers: (call) => get<ServiceDidEntry[]>('/verifiers', call),
    credentials: (call) =>
      restCall<IssuedCredentialsResponse>(
        http,
        { method: 'GET', path: `${DID}/credentials`, bearer: true },
        call,
      ),
    credentialOffer: (params, call) =>
      post<CredentialOfferResult>(
        '/credential-offer',
        {
          txCode: params?.txCode ?? true,
          userInfo: params?.userInfo ?? {},
          // Sent only when given: the service's default is jwt_vc_json.
          ...(params?.format === undefined ? {} : { format: params.format }),
        },
        call,
        true,
      ),
  };
}
