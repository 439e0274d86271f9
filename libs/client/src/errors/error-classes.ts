import { ItpError, type ItpErrorOptions } from './itp-error.js';

/*
 * One class per documented code. REST `error.code` (auth and did catalogs) and JSON-RPC
 * `result.resultCode` (token and block catalogs) share the HTTP-like codes, so one class stands
 * for a code on every API (`err.source` says which kind of answer it was); a few subclasses name
 * what a code means on one endpoint (a wrong password, a QR login still pending, a used tempKey).
 * Which code maps to which class: error-map.ts (checked against the catalogs of @itp/schemas).
 */

// ---- no usable answer --------------------------------------------------------------------------

/** The request did not reach the service or the connection broke (DNS, refused, reset, CORS…). */
export class NetworkError extends ItpError {
  static override readonly code: string = 'NETWORK_ERROR';
}

/** No answer within `timeoutMs` (of the client, or of the call). */
export class TimeoutError extends ItpError {
  static override readonly code: string = 'TIMEOUT';
}

/** The caller's AbortSignal fired. */
export class AbortedError extends ItpError {
  static override readonly code: string = 'ABORTED';
}

/** An answer that is not what the API documents (not JSON, wrong envelope, unknown HTTP status). */
export class UnexpectedResponseError extends ItpError {
  static override readonly code: string = 'UNEXPECTED_RESPONSE';
}

// ---- REST error.code and JSON-RPC result.resultCode --------------------------------------------

/** "400": malformed or invalid input (the message names the member), or a business rule refused it. */
export class BadRequestError extends ItpError {
  static override readonly code: string = '400';
}

/** "400" of auth-user-result-by-app / cancel: the login request never existed, timed out, was cancelled or already handed out. */
export class LoginRequestUnknownError extends BadRequestError {}

/** "access_denied" (HTTP 400) of auth-user-result-by-app: the user declined the login in an OpenID4VP wallet; stop polling. */
export class LoginRequestDeclinedError extends LoginRequestUnknownError {
  static override readonly code: string = 'access_denied';
}

/** "401": missing or bad credentials (bearer JWT, wallet secret, hashKey or signature, VP). */
export class UnauthorizedError extends ItpError {
  static override readonly code: string = '401';
}

/** "401" of auth-user: wrong id or password (the same for an unknown id), or a bad token to extend. */
export class InvalidCredentialsError extends UnauthorizedError {}

/** "401" of auth-user-with-vp: the VP was refused (not verified, stale, replayed, foreign…). */
export class VpRefusedError extends UnauthorizedError {}

/**
 * "401" of auth-user-with-siwe: the Sign-In with Ethereum message was refused (the message says
 * why: domain, URI or chain not the service's, nonce unknown / expired / used, message expired,
 * signature not the address's, address linked to no user, user disabled).
 */
export class SiweRefusedError extends UnauthorizedError {}

/**
 * "401" of auth-user-with-passkey: the passkey assertion was refused (challenge unknown, expired
 * or used, origin or RP id not the service's, signature or user verification failing, a passkey
 * not registered, user disabled).
 */
export class PasskeyRefusedError extends UnauthorizedError {}

/** "401" of auth-user-result-by-app: the user app has not answered yet (poll again). */
export class LoginRequestPendingError extends UnauthorizedError {}

/** "401" of presentation-requests/result: the wallet has not answered yet (poll again). */
export class PresentationPendingError extends UnauthorizedError {}

/**
 * "400" of presentation-requests/result: the presentation request never existed, expired, is
 * another site's or its outcome was already handed out.
 */
export class PresentationRequestUnknownError extends BadRequestError {}

/** "401" of the token API: hashKey is not SHA-256 of `<tempKey>|<secretKey>`, or the signature does not recover `from`. */
export class WalletAuthorizationError extends UnauthorizedError {}

/** "invalid_client" (HTTP 401): relying-party client id / secret missing or wrong. */
export class InvalidClientError extends UnauthorizedError {
  static override readonly code: string = 'invalid_client';
}

/** What StepUpRequiredError carries besides the common fields (RFC 9470 §3). */
export interface StepUpRequiredOptions extends ItpErrorOptions {
  maxAgeSeconds?: number | undefined;
  acrValues?: readonly string[] | undefined;
}

/**
 * "insufficient_user_authentication" (HTTP 401, RFC 9470 step-up): the bearer JWT is valid, but
 * its login (`auth_time`) is too old for this operation (one that adds a way into the account:
 * link-address, create-vc, create-did binding a DID, credential-offer). Log in again and retry
 * with the new JWT — or give the client a `reauthenticate` callback, which does it for you.
 * `maxAgeSeconds` is the challenge's `max_age` (from `WWW-Authenticate`; undefined when the
 * header could not be read, e.g. a browser across origins without it exposed).
 */
export class StepUpRequiredError extends UnauthorizedError {
  static override readonly code: string = 'insufficient_user_authentication';
  /** The longest age (seconds) of the last login this operation accepts (`max_age`). */
  readonly maxAgeSeconds: number | undefined;
  /** The authentication context classes it accepts (`acr_values`), when the challenge names any. */
  readonly acrValues: readonly string[] | undefined;

  constructor(message: string, options: StepUpRequiredOptions) {
    super(message, options);
    this.maxAgeSeconds = options.maxAgeSeconds;
    this.acrValues = options.acrValues;
  }
}

/** "402": the sender cannot pay amount + gas, or the token balance / allowance is too low. */
export class InsufficientFundsError extends ItpError {
  static override readonly code: string = '402';
}

/** "403": authenticated but not allowed (a DID not bound to the caller, another user's VC to revoke, a requestId outside the client's prefixes, the dev chain's public mnemonic). */
export class ForbiddenError extends ItpError {
  static override readonly code: string = '403';
}

/** "404": no such route, wallet address, contract, transaction or block. */
export class NotFoundError extends ItpError {
  static override readonly code: string = '404';
}

/** "404" of unlink-address: the address is not linked to the caller. */
export class AddressNotLinkedError extends NotFoundError {}
/** "404" of revoke-site: no site with that clientId holds a grant of the caller. */
export class SiteGrantNotFoundError extends NotFoundError {}
/** "404" of passkeys/remove: the caller has no passkey with that id. */
export class PasskeyNotFoundError extends NotFoundError {}

/**
 * "409" of link-address: the address is linked to another user (one address, one user). Not a
 * TempKeyError, which is what "409" means on the token API.
 */
export class AddressTakenError extends ItpError {
  static override readonly code: string = '409';
}

/**
 * "409" of passkeys (register): the passkey is registered already, or the caller has as many
 * passkeys as allowed. Not a TempKeyError either.
 */
export class PasskeyConflictError extends ItpError {
  static override readonly code: string = '409';
}

/** "409": the tempKey is unknown, expired, used by another request, or its first request is still running. */
export class TempKeyError extends ItpError {
  static override readonly code: string = '409';
}

/** "413": the body is over the size limit. */
export class PayloadTooLargeError extends ItpError {
  static override readonly code: string = '413';
}

/** "415": a JSON body in an unsupported charset. */
export class UnsupportedMediaTypeError extends ItpError {
  static override readonly code: string = '415';
}

/** "429": too many attempts or calls; `retryAfter` says how many seconds to wait. */
export class TooManyRequestsError extends ItpError {
  static override readonly code: string = '429';
}

/** "slow_down" (HTTP 429): a login result was polled faster than the service allows. */
export class SlowDownError extends TooManyRequestsError {
  static override readonly code: string = 'slow_down';
}

/** "500": an internal failure, or the chain refused the transaction for a reason not in the input. */
export class InternalServerError extends ItpError {
  static override readonly code: string = '500';
}

/** "502": the gateway could not reach the service, or a service got an unexpected answer upstream. */
export class BadGatewayError extends ItpError {
  static override readonly code: string = '502';
}

/** "503": a dependency (database, Redis, chain node, another service) is down; `retryAfter` when the service sent one. */
export class ServiceUnavailableError extends ItpError {
  static override readonly code: string = '503';
}

/** "504": the service did not answer the gateway in time. */
export class GatewayTimeoutError extends ItpError {
  static override readonly code: string = '504';
}

// ---- JSON-RPC protocol errors (error.code, docs/api.md §6) -------------------------------------

/** Any JSON-RPC protocol error (`error.code` an integer); the subclasses name the documented ones. */
export class RpcError extends ItpError {
  static override readonly code: number = -32000;
}

export class ParseRpcError extends RpcError {
  static override readonly code: number = -32700;
}

export class UnsupportedEncodingRpcError extends RpcError {
  static override readonly code: number = -32701;
}

export class InvalidCharacterRpcError extends RpcError {
  static override readonly code: number = -32702;
}

export class InvalidRequestRpcError extends RpcError {
  static override readonly code: number = -32600;
}

export class MethodNotFoundRpcError extends RpcError {
  static override readonly code: number = -32601;
}

export class InvalidParamsRpcError extends RpcError {
  static override readonly code: number = -32602;
}

export class InternalRpcError extends RpcError {
  static override readonly code: number = -32603;
}

export class ApplicationRpcError extends RpcError {
  static override readonly code: number = -32500;
}

export class SystemRpcError extends RpcError {
  static override readonly code: number = -32400;
}

/** -32300: the gateway could not reach the JSON-RPC service or it did not answer in time (HTTP 502 / 504). */
export class TransportRpcError extends RpcError {
  static override readonly code: number = -32300;
}
