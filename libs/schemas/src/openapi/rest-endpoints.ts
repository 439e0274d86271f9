import type { z } from 'zod';
import {
  AUTH_ERRORS,
  authJwksSchema,
  authUserByAppRequestSchema,
  authUserByAppResponseSchema,
  authUserRequestSchema,
  authUserResultByAppRequestSchema,
  cancelAuthUserByAppRequestSchema,
  loginResultSchema,
  OID4VP_ERRORS,
  oid4vpAuthorizationResponseSchema,
  oid4vpResponseAcceptedSchema,
  linkAddressResponseSchema,
  siweNonceRequestSchema,
  siweNonceResponseSchema,
  siweSignedMessageSchema,
  unlinkAddressRequestSchema,
  unlinkAddressResponseSchema,
  accountResponseSchema,
  emptyResponseSchema,
  revokeSiteRequestSchema,
  passkeyAuthenticationOptionsSchema,
  passkeyAuthenticationRequestSchema,
  passkeyOptionsRequestSchema,
  passkeyRegistrationOptionsSchema,
  passkeyRegistrationRequestSchema,
  passkeyRemoveRequestSchema,
  passkeySummarySchema,
  presentationOutcomeSchema,
  presentationRequestCreateSchema,
  presentationRequestCreatedSchema,
  presentationRequestResultRequestSchema,
  type OAuthErrorDoc,
} from '../auth/index.js';
import {
  DID_ERRORS,
  authUserWithVpRequestSchema,
  createDidRequestSchema,
  credentialOfferRequestSchema,
  credentialOfferResultSchema,
  createVcRequestSchema,
  createVpRequestSchema,
  didRecordSchema,
  issuedCredentialsResponseSchema,
  revokeVcRequestSchema,
  revokeVcResultSchema,
  statusListCredentialSchema,
  serviceDidListSchema,
  verifiableCredentialSchema,
  verifiablePresentationSchema,
  verificationResultSchema,
} from '../did/index.js';
import type { RestErrorDoc } from '../errors/service-errors.js';

/**
 * The public REST endpoints (docs/api.md §2–§3) with the schemas the services validate with, and the
 * entries of their API's error catalog each can answer. The OpenAPI document is built from this
 * table (build-openapi.ts); nothing here is a second copy of a schema.
 */
export interface RestEndpoint {
  method: 'get' | 'post';
  path: string;
  tag: 'auth' | 'did';
  summary: string;
  description?: string;
  /** The body schema the route parses (parseBody); absent for GET. */
  request?: z.ZodType;
  /** The success body; absent: success without a body. */
  response?: z.ZodType;
  /** The success status; default 200 (201: a resource was made). */
  successStatus?: 200 | 201;
  /** 'basic': relying-party client credentials; 'bearer': a user JWT; optional when marked so. */
  security?: { scheme: 'basic' | 'bearer'; optional?: boolean };
  /** Every error this endpoint can answer, from its API's catalog. */
  errors: RestErrorDoc[];
  /** The operation id; default `<tag>.<last path segment>`. */
  operationId?: string;
  /** The `{name}` segments of `path`. */
  pathParameters?: Array<{ name: string; description: string; pattern?: string }>;
  /**
   * Media types of the 200 answer besides `application/json`, chosen by `Accept`; the first is
   * the default (answered without an Accept that prefers JSON). Their bodies are text.
   */
  otherMediaTypes?: Array<{ type: string; description: string }>;
  /** Headers of the 200 answer: name → description. */
  responseHeaders?: Record<string, string>;
  /** Answers 304 (no body) when If-None-Match names the current ETag. */
  conditional?: boolean;
  /** The media type of the request body; default `application/json`. */
  requestMediaType?: 'application/json' | 'application/x-www-form-urlencoded';
  /** A 200 answer that is only this text media type (no JSON form); `response` is then absent. */
  textResponse?: { type: string; description: string };
  /**
   * Refusals in the OAuth error shape `{ error, error_description }` (the OpenID4VP endpoints,
   * which wallets call), instead of `errors` of the REST error body.
   */
  oauthErrors?: OAuthErrorDoc[];
}

const A = AUTH_ERRORS;
const D = DID_ERRORS;
const O = OID4VP_ERRORS;
/**
 * Answered by every route of the API (body parsing, limits, bugs). Failed client authentications
 * count against the caller's address like failed logins: over the limit, the relying-party routes
 * answer 429 (tooManyAttempts) too.
 */
const AUTH_BODY = [A.malformed, A.tooLarge, A.charset, A.internal];
const DID_BODY = [D.malformed, D.tooLarge, D.charset, D.internal];

export const REST_ENDPOINTS: RestEndpoint[] = [
  {
    method: 'post',
    path: '/v2/auth/auth-user',
    tag: 'auth',
    summary: 'Password login (or extend a token)',
    request: authUserRequestSchema,
    response: loginResultSchema,
    security: { scheme: 'bearer', optional: true },
    errors: [...AUTH_BODY, A.badCredentials, A.tooManyAttempts, A.unavailable],
  },
  {
    method: 'post',
    path: '/v2/auth/auth-user-with-vp',
    tag: 'auth',
    summary: 'Login with a verifiable presentation (the phone app approving a QR login request)',
    request: authUserWithVpRequestSchema,
    response: loginResultSchema,
    errors: [...AUTH_BODY, A.loginRequestGone, A.badCredentials, A.tooManyAttempts, A.unavailable],
  },
  {
    method: 'post',
    path: '/v2/auth/auth-user-by-app',
    tag: 'auth',
    summary: 'Open a QR login request (relying party)',
    request: authUserByAppRequestSchema,
    response: authUserByAppResponseSchema,
    security: { scheme: 'basic' },
    errors: [...AUTH_BODY, A.invalidClient, A.forbidden, A.tooManyAttempts, A.unavailable],
  },
  {
    method: 'post',
    path: '/v2/auth/cancel-auth-user-by-app',
    tag: 'auth',
    summary: 'Cancel a QR login request (relying party)',
    request: cancelAuthUserByAppRequestSchema,
    security: { scheme: 'basic' },
    // No 403: a requestId outside the client's prefixes is simply not found (400).
    errors: [...AUTH_BODY, A.loginRequestGone, A.invalidClient, A.tooManyAttempts, A.unavailable],
  },
  {
    method: 'post',
    path: '/v2/auth/auth-user-result-by-app',
    tag: 'auth',
    summary: 'Poll a QR login request for its result (relying party)',
    request: authUserResultByAppRequestSchema,
    response: loginResultSchema,
    security: { scheme: 'basic' },
    errors: [
      ...AUTH_BODY,
      A.loginRequestGone,
      A.loginRequestDeclined,
      A.stillWaiting,
      A.invalidClient,
      A.forbidden,
      A.tooManyAttempts,
      A.slowDown,
      A.unavailable,
    ],
  },
  {
    method: 'post',
    path: '/v2/auth/siwe/nonce',
    tag: 'auth',
    operationId: 'auth.siwe-nonce',
    summary: 'Sign-In with Ethereum: a one-time nonce and what the message must carry',
    description:
      'The first step of Sign-In with Ethereum (EIP-4361, docs/api.md §11): a nonce (128 random ' +
      'bits, valid 5 minutes, used once) and the `domain`, `uri` and `chainId` a message for this ' +
      'service must carry. The body may be empty or `{}`. Limited per client address ' +
      '(`SIWE_NONCES_PER_IP_PER_MINUTE`, 429).',
    request: siweNonceRequestSchema,
    response: siweNonceResponseSchema,
    responseHeaders: { 'Cache-Control': 'no-store' },
    errors: [...AUTH_BODY, A.siweNotEnabled, A.tooManyAttempts, A.unavailable],
  },
  {
    method: 'post',
    path: '/v2/auth/auth-user-with-siwe',
    tag: 'auth',
    summary: 'Sign-In with Ethereum: login with a signed EIP-4361 message',
    description:
      "Logs in the user the message's address is linked to (link-address). Accepted when the " +
      "message parses by the EIP-4361 grammar (else 400), its `domain` is PUBLIC_URL's authority, " +
      'its `uri` PUBLIC_URL or a URL below it, its `chainId` the configured chain, its nonce one ' +
      'this service issued and nobody used, Expiration Time / Not Before hold, and the signature ' +
      "is the address's: an EOA's ECDSA signature, an ERC-1271 smart account's (asked of the " +
      'chain), or an ERC-6492 signature of an account not deployed yet. The nonce is then used up. ' +
      'Signatures that ask the chain are limited per client address ' +
      '(`SIWE_CONTRACT_CHECKS_PER_IP_PER_MINUTE`, 429) and gas-capped (5,000,000 per eth_call).',
    request: siweSignedMessageSchema,
    response: loginResultSchema,
    errors: [
      ...AUTH_BODY,
      A.siweMalformed,
      A.siweRefused,
      A.siweNotEnabled,
      A.tooManyAttempts,
      A.unavailable,
    ],
  },
  {
    method: 'post',
    path: '/v2/auth/link-address',
    tag: 'auth',
    summary: "Sign-In with Ethereum: link a signed message's address to the caller",
    description:
      'The address of a signed EIP-4361 message (the same rules as auth-user-with-siwe, a fresh ' +
      'nonce) is linked to the user of the Bearer JWT. One address, one user: an address linked ' +
      'to another user is 409; linking it again to the same user answers the same.',
    request: siweSignedMessageSchema,
    response: linkAddressResponseSchema,
    security: { scheme: 'bearer' },
    errors: [
      ...AUTH_BODY,
      A.siweMalformed,
      A.siweRefused,
      A.badCredentials,
      A.tokenEnded,
      A.stepUp,
      A.siweNotEnabled,
      A.addressTaken,
      A.tooManyAttempts,
      A.unavailable,
    ],
  },
  {
    method: 'post',
    path: '/v2/auth/unlink-address',
    tag: 'auth',
    summary: 'Sign-In with Ethereum: unlink an address from the caller',
    request: unlinkAddressRequestSchema,
    response: unlinkAddressResponseSchema,
    security: { scheme: 'bearer' },
    errors: [...AUTH_BODY, A.badCredentials, A.addressNotLinked, A.siweNotEnabled, A.unavailable],
  },
  {
    method: 'get',
    path: '/v2/auth/account',
    tag: 'auth',
    summary: "The caller's account: linked addresses, passkeys and the sites holding a grant",
    description:
      'What can log in as the caller (docs/api.md §12), besides the password and the credentials ' +
      'issued for the user (`GET /v2/did/credentials`): the Ethereum addresses linked for ' +
      'Sign-In with Ethereum, the passkeys (docs/api.md §13), and the sites (OpenID Connect ' +
      'clients) holding a grant. A passkey is removed with passkeys/remove, a site ended with ' +
      'revoke-site, everything with logout-everywhere.',
    response: accountResponseSchema,
    security: { scheme: 'bearer' },
    responseHeaders: { 'Cache-Control': 'no-store' },
    errors: [A.badCredentials, A.tokenEnded, A.internal, A.unavailable],
  },
  {
    method: 'post',
    path: '/v2/auth/logout-everywhere',
    tag: 'auth',
    summary: 'Ends every token and session of the caller (this one too)',
    description:
      "Moves the caller's security epoch: every platform JWT issued before it is refused by " +
      'every service (the one that asked too), and every OpenID Connect grant and session ends. ' +
      'Linked addresses and credentials stay (unlink or revoke them). Log in again afterwards.',
    request: emptyResponseSchema,
    response: emptyResponseSchema,
    security: { scheme: 'bearer' },
    errors: [...AUTH_BODY, A.badCredentials, A.tokenEnded, A.unavailable],
  },
  {
    method: 'post',
    path: '/v2/auth/revoke-site',
    tag: 'auth',
    summary: "Ends one site's OpenID Connect grants of the caller",
    description:
      'The grant and every code, access token and refresh token issued under it. The site ' +
      'logs the user in again only through a new authorization.',
    request: revokeSiteRequestSchema,
    response: emptyResponseSchema,
    security: { scheme: 'bearer' },
    errors: [...AUTH_BODY, A.badCredentials, A.tokenEnded, A.noSiteGrant, A.unavailable],
  },
  {
    method: 'post',
    path: '/v2/auth/passkeys/registration-options',
    tag: 'auth',
    operationId: 'auth.passkey-registration-options',
    summary: 'Passkeys: the options to make a passkey for the caller (WebAuthn)',
    description:
      'The `PublicKeyCredentialCreationOptionsJSON` for `navigator.credentials.create` ' +
      '(docs/api.md §13; `PublicKeyCredential.parseCreationOptionsFromJSON` in a browser): a ' +
      "one-time challenge valid for `timeout`, the relying party (its id is PUBLIC_URL's host " +
      'name), the WebAuthn user handle, the caller’s passkeys in `excludeCredentials`, a ' +
      'discoverable credential with user verification required, no attestation. A passkey is a ' +
      'way into the account, so the JWT must come from a login within `STEP_UP_MAX_AGE_SECONDS` ' +
      '(RFC 9470 step-up, docs/api.md §12). The body may be `{}`.',
    request: passkeyOptionsRequestSchema,
    response: passkeyRegistrationOptionsSchema,
    security: { scheme: 'bearer' },
    responseHeaders: { 'Cache-Control': 'no-store' },
    errors: [...AUTH_BODY, A.badCredentials, A.tokenEnded, A.stepUp, A.unavailable],
  },
  {
    method: 'post',
    path: '/v2/auth/passkeys',
    tag: 'auth',
    operationId: 'auth.passkey-register',
    summary: 'Passkeys: register the passkey the browser made (201)',
    description:
      "The authenticator's answer (`credential.toJSON()` of `navigator.credentials.create` for " +
      'the registration options) and an optional name. The response must verify for a challenge ' +
      'issued to the caller, unused and unexpired, the origin PUBLIC_URL and its RP id, with user ' +
      'verification; the passkey then logs in as the caller (auth-user-with-passkey) and is ' +
      'listed by `GET /v2/auth/account`. Step-up as for the options. Answers 201 with its id ' +
      '(the credential id), name and creation time.',
    request: passkeyRegistrationRequestSchema,
    response: passkeySummarySchema,
    successStatus: 201,
    security: { scheme: 'bearer' },
    errors: [
      ...AUTH_BODY,
      A.passkeyRegistrationRefused,
      A.badCredentials,
      A.tokenEnded,
      A.stepUp,
      A.passkeyConflict,
      A.unavailable,
    ],
  },
  {
    method: 'post',
    path: '/v2/auth/passkeys/remove',
    tag: 'auth',
    operationId: 'auth.passkey-remove',
    summary: 'Passkeys: remove one of the caller’s passkeys',
    description:
      'The passkey (by its credential id) no longer logs in. Changing the ways into the account ' +
      'needs a recent login (step-up, as for registering one).',
    request: passkeyRemoveRequestSchema,
    response: emptyResponseSchema,
    security: { scheme: 'bearer' },
    errors: [
      ...AUTH_BODY,
      A.badCredentials,
      A.tokenEnded,
      A.stepUp,
      A.passkeyNotFound,
      A.unavailable,
    ],
  },
  {
    method: 'post',
    path: '/v2/auth/passkeys/authentication-options',
    tag: 'auth',
    operationId: 'auth.passkey-authentication-options',
    summary: 'Passkeys: the options to log in with a passkey (anonymous)',
    description:
      'The `PublicKeyCredentialRequestOptionsJSON` for `navigator.credentials.get` ' +
      '(`PublicKeyCredential.parseRequestOptionsFromJSON` in a browser): a one-time challenge ' +
      'valid for `timeout`, the RP id, no `allowCredentials` (the authenticator offers its ' +
      'discoverable passkeys for the RP), user verification required. The body may be `{}`. ' +
      'Limited per client address (`PASSKEY_OPTIONS_PER_IP_PER_MINUTE`, 429).',
    request: passkeyOptionsRequestSchema,
    response: passkeyAuthenticationOptionsSchema,
    responseHeaders: { 'Cache-Control': 'no-store' },
    errors: [...AUTH_BODY, A.tooManyAttempts, A.unavailable],
  },
  {
    method: 'post',
    path: '/v2/auth/auth-user-with-passkey',
    tag: 'auth',
    summary: 'Passkeys: login with a passkey assertion',
    description:
      "The authenticator's assertion (`credential.toJSON()` of `navigator.credentials.get` for " +
      'the authentication options) logs in the user whose passkey signed it: the challenge must ' +
      'be one this service issued and nobody used, the origin PUBLIC_URL and its RP id, with user ' +
      "verification, the signature the passkey's and its counter not gone back. Answers the " +
      'same login result as auth-user. Refusals count against the client address like failed ' +
      'passwords (429 over the limit).',
    request: passkeyAuthenticationRequestSchema,
    response: loginResultSchema,
    errors: [...AUTH_BODY, A.passkeyRefused, A.tooManyAttempts, A.unavailable],
  },
  {
    method: 'get',
    path: '/v2/auth/.well-known/jwks.json',
    tag: 'auth',
    summary: 'Public keys of the login JWTs (JWKS)',
    response: authJwksSchema,
    errors: [A.internal],
  },
  {
    method: 'get',
    path: '/v2/auth/oid4vp/request/{id}',
    tag: 'auth',
    operationId: 'auth.oid4vp-request',
    summary: 'OpenID4VP request object of a QR login request (the wallet fetches it once)',
    description:
      'The `request_uri` of the `openid4vpUri` that auth-user-by-app answers: the signed request ' +
      'object (JWT `typ` `oauth-authz-req+jwt`, signed by a verifier DID of the service, `aud` ' +
      '`https://self-issued.me/v2`; `response_type` `vp_token`, `response_mode` `direct_post`, ' +
      '`response_uri`, `nonce`, `state`, a `dcql_query`). Answered once: a second fetch, an ' +
      'unknown id or a timed-out login request is 404.',
    pathParameters: [
      {
        name: 'id',
        description: 'the one-time id of the request URI (256 random bits)',
        pattern: '^[A-Za-z0-9_-]{43}$',
      },
    ],
    textResponse: {
      type: 'application/oauth-authz-req+jwt',
      description: 'the request object, a compact JWT',
    },
    responseHeaders: { 'Cache-Control': 'no-store' },
    errors: [],
    oauthErrors: [O.requestGone, O.serverError, O.unavailable],
  },
  {
    method: 'post',
    path: '/v2/auth/oid4vp/response/{id}',
    tag: 'auth',
    operationId: 'auth.oid4vp-response',
    summary: 'OpenID4VP answer of a wallet (direct_post): approves the QR login request',
    description:
      'The `response_uri` of the request object. did-service checks the `vp_token` (OpenID4VP ' +
      '1.0 §8.6, §14: signed by its holder, `aud` the client id, the `nonce` issued, every VC ' +
      'verifies, comes from an issuer DID of the service, is about the holder and is not ' +
      "revoked); then the pending login request is approved for the credentials' user, and the " +
      'site collects the login result with auth-user-result-by-app. A wallet whose user declines ' +
      'posts an error response instead (`error`, e.g. access_denied, and `state`; OpenID4VP 1.0 ' +
      '§8.5): 200 `{}`, and the poll answers 400 access_denied at once. Answered once. No ' +
      '`redirect_uri` (cross-device).',
    pathParameters: [
      {
        name: 'id',
        description: 'the id of the request URI',
        pattern: '^[A-Za-z0-9_-]{43}$',
      },
    ],
    request: oid4vpAuthorizationResponseSchema,
    requestMediaType: 'application/x-www-form-urlencoded',
    response: oid4vpResponseAcceptedSchema,
    responseHeaders: { 'Cache-Control': 'no-store' },
    errors: [],
    oauthErrors: [
      O.responseInvalid,
      O.accessDenied,
      O.tooLarge,
      O.serverError,
      O.badUpstream,
      O.unavailable,
    ],
  },
  {
    method: 'post',
    path: '/v2/auth/presentation-requests',
    tag: 'auth',
    operationId: 'auth.presentation-requests',
    summary: 'Ask a wallet for credentials (relying party): an OpenID4VP 1.0 presentation request',
    description:
      'docs/api.md §14: the site sends a DCQL query (OpenID4VP 1.0 §6) for SD-JWT VCs ' +
      '(`dc+sd-jwt`, e.g. an EUDI PID), mdocs (`mso_mdoc`, e.g. a mobile driving licence) or this ' +
      "service's own W3C VCs (`jwt_vc_json`), and shows the `openid4vpUri` it gets as a QR code " +
      'or a link. The wallet fetches a request object signed under the client identifier ' +
      '`x509_san_dns:<PUBLIC_URL host>` (HAIP) and answers encrypted (`direct_post.jwt`); the ' +
      'service checks every presentation against the trusted issuers. Then poll ' +
      'presentation-requests/result.',
    request: presentationRequestCreateSchema,
    response: presentationRequestCreatedSchema,
    responseHeaders: { 'Cache-Control': 'no-store' },
    security: { scheme: 'basic' },
    errors: [
      ...AUTH_BODY,
      A.dcqlRefused,
      A.invalidClient,
      A.presentationRequestsNotEnabled,
      A.tooManyAttempts,
      A.unavailable,
    ],
  },
  {
    method: 'post',
    path: '/v2/auth/presentation-requests/result',
    tag: 'auth',
    operationId: 'auth.presentation-requests-result',
    summary: 'Poll a presentation request for its outcome (relying party)',
    description:
      'While the wallet has not answered: 401 (429 `slow_down` when polled faster than ' +
      '`LOGIN_POLL_MIN_INTERVAL_MS`). Then, once: `verified` with each credential query’s ' +
      'credentials (format, issuer, only the claims the query asked for, status), `declined` ' +
      "(the wallet's error response) or `refused` naming the rule that failed. Only the client " +
      'that made the request sees it; afterwards the request is unknown (400).',
    request: presentationRequestResultRequestSchema,
    response: presentationOutcomeSchema,
    responseHeaders: { 'Cache-Control': 'no-store' },
    security: { scheme: 'basic' },
    errors: [
      ...AUTH_BODY,
      A.presentationRequestGone,
      A.presentationPending,
      A.invalidClient,
      A.presentationRequestsNotEnabled,
      A.tooManyAttempts,
      A.slowDown,
      A.unavailable,
    ],
  },
  {
    method: 'post',
    path: '/v2/did/create-did',
    tag: 'did',
    summary: 'Create a did:ethr DID for a wallet address',
    description:
      'With a bearer JWT the DID is bound to the caller (it then logs in through VP logins): ' +
      'that adds a way into the account, so the JWT must come from a login within ' +
      '`STEP_UP_MAX_AGE_SECONDS` (RFC 9470 step-up, docs/api.md §12).',
    request: createDidRequestSchema,
    response: didRecordSchema,
    security: { scheme: 'bearer', optional: true },
    errors: [
      ...DID_BODY,
      D.unauthenticated,
      D.tokenEnded,
      D.stepUp,
      D.badWalletSecret,
      D.badUpstream,
      D.unavailable,
    ],
  },
  {
    method: 'post',
    path: '/v2/did/create-vc',
    tag: 'did',
    summary: 'Issue a verifiable credential (JWT proof) to a holder DID',
    description:
      'A new credential logs in as the caller (VP logins), so the JWT must come from a login ' +
      'within `STEP_UP_MAX_AGE_SECONDS` (RFC 9470 step-up, docs/api.md §12). The VC has an id ' +
      '(`urn:uuid:…`) and is listed by `GET /v2/did/credentials`.',
    request: createVcRequestSchema,
    response: verifiableCredentialSchema,
    security: { scheme: 'bearer' },
    errors: [
      ...DID_BODY,
      D.notOurs,
      D.unauthenticated,
      D.tokenEnded,
      D.stepUp,
      D.notBound,
      D.badUpstream,
      D.unavailable,
    ],
  },
  {
    method: 'post',
    path: '/v2/did/verify-vc',
    tag: 'did',
    summary: 'Verify a verifiable credential (the VC is the whole body)',
    request: verifiableCredentialSchema,
    response: verificationResultSchema,
    errors: [...DID_BODY, D.notOurs, D.unavailable],
  },
  {
    method: 'post',
    path: '/v2/did/create-vp',
    tag: 'did',
    summary: 'Create a verifiable presentation of the holder’s credentials',
    request: createVpRequestSchema,
    response: verifiablePresentationSchema,
    security: { scheme: 'bearer' },
    errors: [
      ...DID_BODY,
      D.notOurs,
      D.unauthenticated,
      D.tokenEnded,
      D.notBound,
      D.badUpstream,
      D.unavailable,
    ],
  },
  {
    method: 'post',
    path: '/v2/did/verify-vp',
    tag: 'did',
    summary: 'Verify a verifiable presentation (the VP is the whole body)',
    description:
      'The holder DID (the JWT `iss`) may be a did:ethr, did:key or did:jwk DID (a standard ' +
      "wallet's own key: ES256, ES256K or EdDSA); the VP must be signed by that DID's key. Every " +
      'VC inside must verify, come from an issuer DID of the service and be about the holder.',
    request: verifiablePresentationSchema,
    response: verificationResultSchema,
    errors: [...DID_BODY, D.notOurs, D.unavailable],
  },
  {
    method: 'post',
    path: '/v2/did/revoke-vc',
    tag: 'did',
    summary: 'Revoke a verifiable credential of the caller (for good)',
    description:
      'The body is the VC as create-vc answered it (`vc`) or its compact JWT (`jwt`), or an ' +
      'SD-JWT VC as OpenID4VCI issued it (`sdJwt`, with or without its disclosures). The JWT ' +
      'must verify as issued by an issuer DID of this service (an SD-JWT VC: signed by its ' +
      'SD-JWT issuer key, `x5c`) (an expired VC may still be revoked) and carry a status entry ' +
      'of this service (an SD-JWT VC: `status.status_list` of its token status list, answered ' +
      'as `statusListCredential` = `uri`, `statusListIndex` = `idx`); the bearer must be the ' +
      'user the VC was issued to. Revoking again answers 200 again. Its status list shows the ' +
      'bit set from the next signed revision; verify-vc, verify-vp and logins see it at once.',
    request: revokeVcRequestSchema,
    response: revokeVcResultSchema,
    security: { scheme: 'bearer' },
    errors: [
      ...DID_BODY,
      D.notRevocable,
      D.unauthenticated,
      D.tokenEnded,
      D.notYourCredential,
      D.unavailable,
    ],
  },
  {
    method: 'post',
    path: '/v2/did/credential-offer',
    tag: 'did',
    summary: 'An OpenID4VCI credential offer for the caller: any standard wallet receives the VC',
    description:
      'OpenID4VCI 1.0, pre-authorized code flow (docs/api.md §10): the answer is the offer URI ' +
      'to show as a QR code; the wallet fetches the offer once, redeems its one-time code (5 ' +
      'minutes, with the transaction code unless `txCode: false`) at the token endpoint of ' +
      'the credential issuer `<server>/v2/did/oid4vci`, proves its key and receives a ' +
      '`jwt_vc_json` credential (types VerifiableCredential, Profile) issued to its own DID ' +
      '(did:key, did:jwk or did:ethr) with `credentialSubject.sub` = the caller and a status ' +
      "entry. The issuer's endpoints are described by its metadata " +
      '`/.well-known/openid-credential-issuer/v2/did/oid4vci` (OAuth error bodies). With ' +
      '`format: "dc+sd-jwt"` (docs/api.md §15) the offer names `itp_profile_sd_jwt`: an SD-JWT ' +
      'VC (ES256, `x5c`, `vct` `<server>/v2/did/oid4vci/vct/profile`) bound to the key of the ' +
      "wallet's proof (`cnf.jwk`), each profile claim selectively disclosable, with a token " +
      'status list entry; DPoP-bound access tokens when the wallet sends DPoP proofs.',
    request: credentialOfferRequestSchema,
    response: credentialOfferResultSchema,
    security: { scheme: 'bearer' },
    errors: [
      ...DID_BODY,
      D.sdJwtUnavailable,
      D.unauthenticated,
      D.tokenEnded,
      D.stepUp,
      D.unavailable,
    ],
  },
  {
    method: 'get',
    path: '/v2/did/credentials',
    tag: 'did',
    summary: 'The credentials issued for the caller, newest first, with their status',
    description:
      'Every credential this service issued for the caller (docs/api.md §12), through create-vc ' +
      'or OpenID4VCI (`via`), newest first (at most the newest 1000): its id (the VC `id` / JWT ' +
      '`jti`), holder DID, issuance and expiry, and `status` read from its status list entry ' +
      '(`revoked` once revoke-vc, the operator or a password reset set its bit). Each one is a ' +
      'way to log in as the caller (VP logins): revoke-vc ends one.',
    response: issuedCredentialsResponseSchema,
    security: { scheme: 'bearer' },
    responseHeaders: { 'Cache-Control': 'no-store' },
    errors: [D.unauthenticated, D.tokenEnded, D.internal, D.unavailable],
  },
  {
    method: 'get',
    path: '/v2/did/status-lists/{listId}',
    tag: 'did',
    operationId: 'did.status-list',
    summary: 'A status list credential (W3C Bitstring Status List v1.0): public, cacheable',
    description:
      'The BitstringStatusListCredential (purpose `revocation`) that the `credentialStatus` of ' +
      'issued VCs points at, signed by the same issuer DID. By default a compact JWT ' +
      '(`application/vc+jwt`); with `Accept: application/json` the same credential in the VC ' +
      'JSON shape of create-vc (with `proof.jwt`). `credentialSubject.encodedList` is "u" + ' +
      'base64url (no padding) of the GZIP-compressed bitstring, index 0 the left-most bit; a set ' +
      'bit is a revoked VC. `Cache-Control: max-age` says how long it may be cached; `ETag` / ' +
      '`If-None-Match` answer 304 while it is unchanged.',
    response: statusListCredentialSchema,
    pathParameters: [
      {
        name: 'listId',
        description: 'the list id, last segment of statusListCredential',
        pattern: '^[A-Za-z0-9_-]{22}$',
      },
    ],
    otherMediaTypes: [
      {
        type: 'application/vc+jwt',
        description: 'the credential as a compact JWT (ES256K, did:ethr issuer)',
      },
    ],
    responseHeaders: {
      'Cache-Control': 'public, max-age=<STATUS_LIST_MAX_AGE_SECONDS> (default 300)',
      ETag: 'changes when the list changes (a revocation); differs between the JWT and JSON forms',
    },
    conditional: true,
    errors: [D.noStatusList, D.internal, D.unavailable],
  },
  {
    method: 'get',
    path: '/v2/did/issuers',
    tag: 'did',
    summary: 'The service’s issuer DIDs',
    response: serviceDidListSchema,
    errors: [D.internal],
  },
  {
    method: 'get',
    path: '/v2/did/verifiers',
    tag: 'did',
    summary: 'The service’s verifier DIDs',
    response: serviceDidListSchema,
    errors: [D.internal],
  },
];
