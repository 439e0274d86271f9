import type { HttpTransport } from '../http/http-transport.js';
import { restCall } from '../http/rest-call.js';
import type {
  AuthApi,
  AuthJwks,
  AuthUserByAppResponse,
  CallOptions,
  ClientCredentials,
  LoginResult,
  RelyingPartyApi,
} from '../types.js';
import { basicAuthorization } from './basic-auth.js';
import { waitForLogin } from './wait-for-login.js';

const AUTH = '/v2/auth';

/** /v2/auth: password and VP login, the JWKS, and the relying party's side of QR login. */
export function authApi(http: HttpTransport): AuthApi {
  const post = <T>(path: string, body: unknown, call?: CallOptions, authorization?: string) =>
    restCall<T>(http, { method: 'POST', path: `${AUTH}${path}`, body, authorization }, call);

  const loginWithVp: AuthApi['loginWithVp'] = ({ vp, requestId }, call) =>
    post<LoginResult>(
      '/auth-user-with-vp',
      requestId === undefined ? { vp } : { vp, requestId },
      call,
    );

  return {
    login: ({ id, password, token }, call) =>
      post<LoginResult>(
        '/auth-user',
        token === undefined ? { id, password } : { id, password, token },
        call,
      ),
    loginWithVp,
    approveLogin: (requestId, vp, call) => loginWithVp({ vp, requestId }, call),
    jwks: (call) =>
      restCall<AuthJwks>(http, { method: 'GET', path: `${AUTH}/.well-known/jwks.json` }, call),
    relyingParty: (credentials: ClientCredentials): RelyingPartyApi => {
      const authorization = basicAuthorization(credentials);
      const loginResult = (requestId: string, call?: CallOptions) =>
        post<LoginResult>('/auth-user-result-by-app', { requestId }, call, authorization);
      return {
        startLogin: ({ requestId, waitTime }, call) =>
          post<AuthUserByAppResponse>(
            '/auth-user-by-app',
            waitTime === undefined ? { requestId } : { requestId, waitTime },
            call,
            authorization,
          ),
        cancelLogin: async (requestId, call) => {
          await restCall<unknown>(
            http,
            {
              method: 'POST',
              path: `${AUTH}/cancel-auth-user-by-app`,
              body: { requestId },
              accept: '*/*',
              authorization,
            },
            call,
          );
        },
        loginResult,
        waitForLogin: (requestId, options) =>
          waitForLogin((call) => loginResult(requestId, call), requestId, options),
      };
    },
  };
}
