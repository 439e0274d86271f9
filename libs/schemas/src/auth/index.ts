export { loginResultSchema, type LoginResult } from './login-result.js';
export { AUTH_LIMITS, authUserRequestSchema, type AuthUserRequest } from './auth-user.js';
export {
  APP_LOGIN_WAIT_TIME,
  authUserByAppRequestSchema,
  authUserByAppResponseSchema,
  authUserResultByAppRequestSchema,
  cancelAuthUserByAppRequestSchema,
  type AuthUserByAppRequest,
  type AuthUserByAppResponse,
  type AuthUserResultByAppRequest,
  type CancelAuthUserByAppRequest,
} from './app-login.js';
export {
  authJwksSchema,
  publicSigningJwkSchema,
  type AuthJwks,
  type PublicSigningJwk,
} from './jwks.js';
export {
  userStatusRequestSchema,
  userStatusResponseSchema,
  type UserStatusRequest,
  type UserStatusResponse,
} from './user-status.js';
export { AUTH_ERRORS } from './errors.js';
export {
  OAUTH_ERROR_CODES,
  OID4VP_ERRORS,
  OID4VP_VP_TOKEN_MAX_LENGTH,
  oauthErrorBodySchema,
  oid4vpAuthorizationResponseSchema,
  oid4vpResponseAcceptedSchema,
  type OAuthErrorBody,
  type OAuthErrorCode,
  type OAuthErrorDoc,
  type Oid4vpAuthorizationResponse,
} from './oid4vp.js';
export { CONTROL_CHARACTER, plainText } from './plain-text.js';
export {
  SIWE_LIMITS,
  linkAddressResponseSchema,
  siweNonceRequestSchema,
  siweNonceResponseSchema,
  siweSignedMessageSchema,
  unlinkAddressRequestSchema,
  unlinkAddressResponseSchema,
  type LinkAddressResponse,
  type SiweNonceResponse,
  type SiweSignedMessage,
  type UnlinkAddressRequest,
  type UnlinkAddressResponse,
} from './siwe.js';
export {
  accountResponseSchema,
  emptyResponseSchema,
  revokeSiteRequestSchema,
  type AccountResponse,
  type AccountView,
  type RevokeSiteRequest,
} from './account.js';
export {
  PASSKEY_LIMITS,
  passkeyAuthenticationOptionsSchema,
  passkeyAuthenticationRequestSchema,
  passkeyOptionsRequestSchema,
  passkeyRegistrationOptionsSchema,
  passkeyRegistrationRequestSchema,
  passkeyRemoveRequestSchema,
  passkeySummarySchema,
  type PasskeyAuthenticationOptions,
  type PasskeyAuthenticationRequest,
  type PasskeyAuthenticationResponse,
  type PasskeyRegistrationOptions,
  type PasskeyRegistrationRequest,
  type PasskeyRegistrationResponse,
  type PasskeyRemoveRequest,
  type PasskeySummary,
} from './passkeys.js';
export {
  PRESENTATION_REQUEST_LIMITS,
  presentationOutcomeSchema,
  presentationRequestCreateSchema,
  presentationRequestCreatedSchema,
  presentationRequestResultRequestSchema,
  presentedCredentialSchema,
  type PresentationOutcome,
  type PresentationRequestCreate,
  type PresentationRequestCreated,
  type PresentationRequestResultRequest,
  type PresentedCredential,
} from './presentation-requests.js';
