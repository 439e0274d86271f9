import type { RestErrorDoc } from '../errors/service-errors.js';

/** The authentication API's error catalog (`/v2/auth`, docs/api.md §2): HTTP status, `error.code`. */
export const AUTH_ERRORS = {
  malformed: {
    status: 400,
    code: '400',
    when: 'malformed JSON (`Malformed JSON body`) or a body failing validation (the message names the member)',
  },
  loginRequestGone: {
    status: 400,
    code: '400',
    when: 'auth-user-result-by-app / cancel: unknown, cancelled, timed-out or already handed-out login request',
  },
  dcqlRefused: {
    status: 400,
    code: '400',
    when: 'presentation-requests: a dcql_query this verifier does not take (the message says why: not DCQL, over 10 credentials, a format other than dc+sd-jwt / mso_mdoc / jwt_vc_json, no meta naming the type, a jwt_vc_json claim path outside credentialSubject)',
  },
  presentationRequestGone: {
    status: 400,
    code: '400',
    when: "presentation-requests/result: unknown, expired, another client's or already handed-out presentation request",
  },
  presentationPending: {
    status: 401,
    code: '401',
    when: 'presentation-requests/result: the wallet has not answered yet',
  },
  loginRequestDeclined: {
    status: 400,
    code: 'access_denied',
    when: 'auth-user-result-by-app: the user declined the login in an OpenID4VP wallet (its error response, docs/api.md §8); answered at once, stop polling',
  },
  badCredentials: {
    status: 401,
    code: '401',
    when: 'wrong id or password (`Invalid id or password`, the same for an unknown id), a bad token to extend; link-address / unlink-address without a valid Bearer JWT of an active user',
  },
  tokenEnded: {
    status: 401,
    code: '401',
    when: 'a Bearer JWT issued before a password reset, a disable or a logout everywhere (docs/api.md §12: `This token was ended …`), or of a disabled user; a VP / OpenID4VP login with a credential issued before a reset',
  },
  stepUp: {
    status: 401,
    code: 'insufficient_user_authentication',
    when: 'link-address with a JWT whose login (`auth_time`) is older than `STEP_UP_MAX_AGE_SECONDS` (RFC 9470; `WWW-Authenticate: Bearer error="insufficient_user_authentication", …, max_age=<seconds>`): log in again and retry',
  },
  stillWaiting: {
    status: 401,
    code: '401',
    when: 'auth-user-result-by-app: the user app has not answered yet',
  },
  invalidClient: {
    status: 401,
    code: 'invalid_client',
    when: 'relying-party credentials missing or wrong (with `WWW-Authenticate: Basic`)',
  },
  forbidden: {
    status: 403,
    code: '403',
    when: "requestId outside the client's registered prefixes; the approved user was disabled, reset or logged out everywhere before the hand-out",
  },
  siweMalformed: {
    status: 400,
    code: '400',
    when: 'Sign-In with Ethereum: the message is not an EIP-4361 message (the message names the field)',
  },
  siweRefused: {
    status: 401,
    code: '401',
    when: "Sign-In with Ethereum refused (the message says why): domain, URI or chain not this service's, nonce unknown, expired or used, message expired or not yet valid, signature not the address's, address linked to no user, user disabled",
  },
  passkeyRegistrationRefused: {
    status: 400,
    code: '400',
    when: 'passkeys: the registration response does not verify (the message says why: challenge unknown, expired or used, origin or RP id not the service’s, no user verification)',
  },
  passkeyRefused: {
    status: 401,
    code: '401',
    when: 'auth-user-with-passkey: the assertion logs nobody in (the message says which: challenge used or expired, unknown or removed passkey, signature or counter not verifying, user disabled); counted like a failed password',
  },
  noRoute: { status: 404, code: '404', when: 'no such route' },
  presentationRequestsNotEnabled: {
    status: 404,
    code: '404',
    when: 'presentation requests are not enabled here (auth-service has no VERIFIER_SIGNING_KEY and VERIFIER_CERTIFICATE_CHAIN; development: PUBLIC_URL is no DNS name)',
  },
  passkeyNotFound: {
    status: 404,
    code: '404',
    when: 'passkeys/remove: the caller has no passkey with that id',
  },
  addressNotLinked: {
    status: 404,
    code: '404',
    when: 'unlink-address: the address is not linked to the caller',
  },
  noSiteGrant: {
    status: 404,
    code: '404',
    when: 'revoke-site: no site with that clientId holds a grant of the caller',
  },
  siweNotEnabled: {
    status: 404,
    code: '404',
    when: 'Sign-In with Ethereum is not enabled here (auth-service has no ETH_RPC_URL and CHAIN_ID)',
  },
  addressTaken: {
    status: 409,
    code: '409',
    when: 'link-address: the address is linked to another user (one address, one user)',
  },
  passkeyConflict: {
    status: 409,
    code: '409',
    when: 'passkeys: the passkey is registered already, or the caller has the most passkeys allowed',
  },
  tooLarge: { status: 413, code: '413', when: 'body over the limit (`BODY_LIMIT_BYTES`, 1 MiB)' },
  charset: {
    status: 415,
    code: '415',
    when: 'a JSON body in a charset other than UTF-8/16/32',
  },
  tooManyAttempts: {
    status: 429,
    code: '429',
    when: 'too many failed attempts (per id + client address, per client address, or a short per-id hold), with `Retry-After` (seconds)',
  },
  slowDown: {
    status: 429,
    code: 'slow_down',
    when: 'auth-user-result-by-app or presentation-requests/result polled faster than `LOGIN_POLL_MIN_INTERVAL_MS`, with `Retry-After`',
  },
  internal: {
    status: 500,
    code: '500',
    when: 'a bug: `Internal error (request id …)` (the detail is only in the log)',
  },
  unavailable: {
    status: 503,
    code: '503',
    when: 'a dependency is down (the user database, Redis, did-service for VP login, the chain node for a smart-account signature)',
  },
} satisfies Record<string, RestErrorDoc>;
