import { UnauthorizedError } from '../errors/error-classes.js';
import type { HttpTransport } from '../http/http-transport.js';
import { restCall } from '../http/rest-call.js';
import type {
  AccountResponse,
  AuthApi,
  AuthJwks,
  AuthUserByAppResponse,
  CallOptions,
  ClientCredentials,
  LinkAddressResponse,
  LoginResult,
  PasskeyAuthenticationOptions,
  PasskeyRegistrationOptions,
  PasskeysApi,
  PasskeySummary,
  PresentationOutcome,
  PresentationRequestCreated,
  RelyingPartyApi,
  SiweNonceResponse,
  UnlinkAddressResponse,
} from '../types.js';
import { basicAuthorization } from './basic-auth.js';
import { signSiwe } from './sign-siwe.js';
import { waitForLogin } from './wait-for-login.js';

const AUTH = '/v2/auth';

/** The statements of the messages the SDK builds, unless the caller gives one. */
const SIGN_IN = (domain: string) => `Sign in to ${domain}`;
const LINK = (domain: string) => `Link this address to your account on ${domain}`;

/**
 * /v2/auth: password, VP, Sign-In with Ethereum and passkey login, linking addresses, passkeys,
 * the account (its ways in, logout everywhere, revoking a site), the JWKS, and the relying
 * party's side of QR login.
 */
export function authApi(http: HttpTransport): AuthApi {
  const post = <T>(path: string, body: unknown, call?: CallOptions, authorization?: string) =>
    restCall<T>(http, { method: 'POST', path: `${AUTH}${path}`, body, authorization }, call);
  /** A POST that takes the bearer JWT (the call's, else the client's). */
  const postAsUser = <T>(path: string, body: unknown, call?: CallOptions) =>
    restCall<T>(http, { method: 'POST', path: `${AUTH}${path}`, body, bearer: true }, call);

  const loginWithVp: AuthApi['loginWithVp'] = ({ vp, requestId }, call) =>
    post<LoginResult>(
      '/auth-user-with-vp',
      requestId === undefined ? { vp } : { vp, requestId },
      call,
    );

  const siweNonce: AuthApi['siweNonce'] = (call) =>
    post<SiweNonceResponse>('/siwe/nonce', {}, call);
  const loginWithSiweMessage: AuthApi['loginWithSiweMessage'] = ({ message, signature }, call) =>
    post<LoginResult>('/auth-user-with-siwe', { message, signature }, call);

  const passkeys: PasskeysApi = {
    registrationOptions: (call) =>
      postAsUser<PasskeyRegistrationOptions>('/passkeys/registration-options', {}, call),
    register: (response, name, call) =>
      postAsUser<PasskeySummary>(
        '/passkeys',
        name === undefined ? { response } : { response, name },
        call,
      ),
    remove: async (id, call) => {
      await postAsUser<unknown>('/passkeys/remove', { id }, call);
    },
    authenticationOptions: (call) =>
      post<PasskeyAuthenticationOptions>('/passkeys/authentication-options', {}, call),
  };

  return {
    login: ({ id, password, token }, call) =>
      post<LoginResult>(
        '/auth-user',
        token === undefined ? { id, password } : { id, password, token },
        call,
      ),
    loginWithVp,
    approveLogin: (requestId, vp, call) => loginWithVp({ vp, requestId }, call),
    siweNonce,
    loginWithSiwe: async (signer, siwe, call) => {
      const { message, signature } = await signSiwe(signer, () => siweNonce(call), SIGN_IN, siwe);
      return loginWithSiweMessage({ message, signature }, call);
    },
    loginWithSiweMessage,
    loginWithPasskey: (response, call) =>
      post<LoginResult>('/auth-user-with-passkey', { response }, call),
    passkeys,
    linkAddress: async (signer, siwe, call) => {
      // Before the signer is asked for anything: the service would refuse it without a token.
      if (!http.hasBearer(call)) {
        throw new UnauthorizedError(
          'linkAddress acts for a user: give its bearer JWT (client.withToken(token), or { token } in the call options)',
          { source: 'client', operation: `${AUTH}/link-address` },
        );
      }
      const { message, signature } = await signSiwe(signer, () => siweNonce(call), LINK, siwe);
      return postAsUser<LinkAddressResponse>('/link-address', { message, signature }, call);
    },
    unlinkAddress: (address, call) =>
      postAsUser<UnlinkAddressResponse>('/unlink-address', { address }, call),
    jwks: (call) =>
      restCall<AuthJwks>(http, { method: 'GET', path: `${AUTH}/.well-known/jwks.json` }, call),
    account: async (call) => {
      const account = await restCall<Omit<AccountResponse, 'passkeys'> & Partial<AccountResponse>>(
        http,
        { method: 'GET', path: `${AUTH}/account`, bearer: true },
        call,
      );
      // A service before passkeys does not list them: none.
      return { ...account, passkeys: account.passkeys ?? [] };
    },
    logoutEverywhere: async (call) => {
      await postAsUser<unknown>('/logout-everywhere', {}, call);
    },
    revokeSite: async (clientId, call) => {
      await postAsUser<unknown>('/revoke-site', { clientId }, call);
    },
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
        presentationRequests: {
          create: ({ dcqlQuery, purpose, waitTime }, call) =>
            post<PresentationRequestCreated>(
              '/presentation-requests',
              {
                dcql_query: dcqlQuery,
                ...(purpose === undefined ? {} : { purpose }),
                ...(waitTime === undefined ? {} : { waitTime }),
              },
              call,
              authorization,
            ),
          result: (requestId, call) =>
            post<PresentationOutcome>(
              '/presentation-requests/result',
              { requestId },
              call,
              authorization,
            ),
        },
      };
    },
  };
}
