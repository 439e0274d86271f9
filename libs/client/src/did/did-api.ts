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
  ServiceDidEntry,
  VerifiableCredential,
  VerifiablePresentation,
  VerificationResult,
} from '../types.js';

const DID = '/v2/did';

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
    revokeVc: (credential, call) => {
      const body: RevokeVcRequest =
        typeof credential === 'string' ? { jwt: credential } : { vc: credential };
      return post<RevokeVcResult>('/revoke-vc', body, call, true);
    },
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
        { txCode: params?.txCode ?? true, userInfo: params?.userInfo ?? {} },
        call,
        true,
      ),
  };
}
