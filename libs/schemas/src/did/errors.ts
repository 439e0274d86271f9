import type { RestErrorDoc } from '../errors/service-errors.js';

/** The DID API's error catalog (`/v2/did`, docs/api.md §3): HTTP status, `error.code`. */
export const DID_ERRORS = {
  malformed: {
    status: 400,
    code: '400',
    when: 'malformed JSON or a body failing validation (the message names the member; a reserved userInfo key is named)',
  },
  notOurs: {
    status: 400,
    code: '400',
    when: "a body that is no VC / VP; an issuer / verifier that is not the service's; a holder create-did did not make; credentials that do not verify or are not the holder's",
  },
  sdJwtUnavailable: {
    status: 400,
    code: '400',
    when: 'credential-offer with `format: "dc+sd-jwt"` while this service has no SD-JWT issuer key (SD-JWT issuance off)',
  },
  notRevocable: {
    status: 400,
    code: '400',
    when: 'revoke-vc: a VC whose JWT does not verify as issued by this service, or without a status entry of this service',
  },
  unauthenticated: {
    status: 401,
    code: '401',
    when: 'missing / invalid / expired bearer JWT; a user disabled since the JWT was issued',
  },
  tokenEnded: {
    status: 401,
    code: '401',
    when: 'a bearer JWT issued before a password reset, a disable or a logout everywhere (docs/api.md §12: `This token was ended …`), refused at once or within `USER_STATUS_CACHE_MS`',
  },
  stepUp: {
    status: 401,
    code: 'insufficient_user_authentication',
    when: 'create-vc, create-did with a bearer, credential-offer: the JWT login (`auth_time`, else `iat`) is older than `STEP_UP_MAX_AGE_SECONDS` (RFC 9470; `WWW-Authenticate: Bearer error="insufficient_user_authentication", …, max_age=<seconds>`): log in again and retry',
  },
  badWalletSecret: {
    status: 401,
    code: '401',
    when: 'create-did: `address and secretKey do not match a wallet address`',
  },
  notBound: {
    status: 403,
    code: '403',
    when: "create-vc / create-vp: the holder DID is not bound to the caller (unbound or another user's; the message says how to bind); a credential names another user",
  },
  notYourCredential: {
    status: 403,
    code: '403',
    when: 'revoke-vc: the VC was issued to another user',
  },
  noRoute: { status: 404, code: '404', when: 'no such route' },
  noStatusList: {
    status: 404,
    code: '404',
    when: 'GET /v2/did/status-lists/<listId>: no such status list (unknown or malformed listId)',
  },
  charset: {
    status: 415,
    code: '415',
    when: 'a JSON body in a charset other than UTF-8/16/32',
  },
  tooLarge: { status: 413, code: '413', when: 'body over the limit (`BODY_LIMIT_BYTES`, 1 MiB)' },
  internal: {
    status: 500,
    code: '500',
    when: 'a bug: `Internal error (request id …)` (the detail is only in the log)',
  },
  badUpstream: { status: 502, code: '502', when: 'token-rpc answered something unexpected' },
  unavailable: {
    status: 503,
    code: '503',
    when: "token-rpc, the JWKS, auth-service's user status (with no recent answer) or the chain is unavailable",
  },
} satisfies Record<string, RestErrorDoc>;
