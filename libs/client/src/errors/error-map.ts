import {
  AddressNotLinkedError,
  AddressTakenError,
  ApplicationRpcError,
  BadGatewayError,
  BadRequestError,
  ForbiddenError,
  GatewayTimeoutError,
  InsufficientFundsError,
  InternalRpcError,
  InternalServerError,
  InvalidCharacterRpcError,
  InvalidClientError,
  InvalidCredentialsError,
  InvalidParamsRpcError,
  InvalidRequestRpcError,
  LoginRequestDeclinedError,
  LoginRequestPendingError,
  LoginRequestUnknownError,
  MethodNotFoundRpcError,
  NotFoundError,
  ParseRpcError,
  PasskeyConflictError,
  PasskeyNotFoundError,
  PasskeyRefusedError,
  PayloadTooLargeError,
  PresentationPendingError,
  PresentationRequestUnknownError,
  RpcError,
  ServiceUnavailableError,
  SiteGrantNotFoundError,
  SiweRefusedError,
  SlowDownError,
  StepUpRequiredError,
  SystemRpcError,
  TempKeyError,
  TooManyRequestsError,
  TransportRpcError,
  UnauthorizedError,
  UnexpectedResponseError,
  UnsupportedEncodingRpcError,
  UnsupportedMediaTypeError,
  VpRefusedError,
  WalletAuthorizationError,
} from './error-classes.js';
import { INSUFFICIENT_USER_AUTHENTICATION, stepUpChallengeOf } from '../http/www-authenticate.js';
import { ItpError, type ItpErrorClass, type ItpErrorOptions } from './itp-error.js';

const byCode = (classes: ItpErrorClass[]): ReadonlyMap<string | number, ItpErrorClass> =>
  new Map(classes.map((c) => [c.code, c]));

/**
 * REST `error.code` and JSON-RPC `result.resultCode` → class, keyed by each class's static code.
 * Every code of the catalogs in @itp/schemas (AUTH_ERRORS, DID_ERRORS, TOKEN_SERVICE_ERRORS,
 * BLOCK_SERVICE_ERRORS) has its class here: error-map.spec.ts checks it.
 */
export const CODE_CLASSES = byCode([
  BadRequestError,
  LoginRequestDeclinedError,
  UnauthorizedError,
  InvalidClientError,
  StepUpRequiredError,
  InsufficientFundsError,
  ForbiddenError,
  NotFoundError,
  TempKeyError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
  TooManyRequestsError,
  SlowDownError,
  InternalServerError,
  BadGatewayError,
  ServiceUnavailableError,
  GatewayTimeoutError,
]);

/** JSON-RPC protocol `error.code` → class (docs/api.md §6). */
export const RPC_CODE_CLASSES = byCode([
  ParseRpcError,
  UnsupportedEncodingRpcError,
  InvalidCharacterRpcError,
  InvalidRequestRpcError,
  MethodNotFoundRpcError,
  InvalidParamsRpcError,
  InternalRpcError,
  ApplicationRpcError,
  SystemRpcError,
  TransportRpcError,
]);

/**
 * What a code means on one REST endpoint, where that is more specific than the code alone (a
 * subclass of the code's class, except link-address's 409, which is no tempKey failure).
 */
const REST_ENDPOINT_CLASSES: Record<string, Record<string, ItpErrorClass>> = {
  '/v2/auth/auth-user': { '401': InvalidCredentialsError },
  '/v2/auth/auth-user-with-vp': { '401': VpRefusedError },
  '/v2/auth/auth-user-result-by-app': {
    '400': LoginRequestUnknownError,
    '401': LoginRequestPendingError,
  },
  '/v2/auth/cancel-auth-user-by-app': { '400': LoginRequestUnknownError },
  '/v2/auth/presentation-requests/result': {
    '400': PresentationRequestUnknownError,
    '401': PresentationPendingError,
  },
  '/v2/auth/auth-user-with-siwe': { '401': SiweRefusedError },
  '/v2/auth/link-address': { '409': AddressTakenError },
  '/v2/auth/unlink-address': { '404': AddressNotLinkedError },
  '/v2/auth/revoke-site': { '404': SiteGrantNotFoundError },
  '/v2/auth/auth-user-with-passkey': { '401': PasskeyRefusedError },
  '/v2/auth/passkeys': { '409': PasskeyConflictError },
  '/v2/auth/passkeys/remove': { '404': PasskeyNotFoundError },
};

/** What a resultCode means on the token APIs (`/token`, `/token/erc20`). */
const TOKEN_SERVICE_CLASSES: Record<string, ItpErrorClass> = { '401': WalletAuthorizationError };

export interface RestFailure {
  /** the REST path, e.g. `/v2/auth/auth-user` */
  path: string;
  status: number;
  /** the parsed body (undefined when it was no JSON) */
  body: unknown;
  retryAfter?: number;
  /** the `WWW-Authenticate` header, when the answer had one */
  wwwAuthenticate?: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The `{ error: { code, message } }` of a REST answer, if it has one. */
export function restErrorOf(
  body: unknown,
): { code: string; message: string; details?: unknown } | undefined {
  if (!isRecord(body) || !isRecord(body['error'])) return undefined;
  const { code, message, details } = body['error'];
  if (typeof code !== 'string') return undefined;
  return { code, message: typeof message === 'string' ? message : code, details };
}

/**
 * The error of a failed REST answer (or a gateway's JSON error): its class by code and endpoint.
 * A step-up challenge (RFC 9470: the body's code, or a 401 whose `WWW-Authenticate` Bearer
 * challenge has `error="insufficient_user_authentication"`) is a StepUpRequiredError with the
 * challenge's `max_age` and `acr_values`.
 */
export function restError({
  path,
  status,
  body,
  retryAfter,
  wwwAuthenticate,
}: RestFailure): ItpError {
  const error = restErrorOf(body);
  const challenge = status === 401 ? stepUpChallengeOf(wwwAuthenticate) : undefined;
  const code =
    error?.code ?? (challenge ? INSUFFICIENT_USER_AUTHENTICATION : undefined) ?? String(status);
  const options: ItpErrorOptions = {
    source: 'rest',
    code,
    status,
    operation: path,
    retryAfter,
    data: error?.details,
  };
  const message = error?.message ?? challenge?.description ?? `HTTP ${status} from ${path}`;
  if (code === INSUFFICIENT_USER_AUTHENTICATION || challenge) {
    return new StepUpRequiredError(message, {
      ...options,
      code: INSUFFICIENT_USER_AUTHENTICATION,
      maxAgeSeconds: challenge?.maxAgeSeconds,
      acrValues: challenge?.acrValues,
    });
  }
  const Class = REST_ENDPOINT_CLASSES[path]?.[code] ?? CODE_CLASSES.get(code);
  if (Class) return new Class(message, options);
  return new UnexpectedResponseError(message, { ...options, source: 'client' });
}

export interface ServiceFailure {
  /** the JSON-RPC endpoint path: `/token`, `/token/erc20` or `/block` */
  path: string;
  method: string;
  resultCode: string;
  resultMessage: string;
  status: number;
  retryAfter?: number;
}

/** A JSON-RPC service error (`result.resultCode` other than "200"). */
export function serviceError(failure: ServiceFailure): ItpError {
  const { path, method, resultCode, resultMessage, status, retryAfter } = failure;
  const specific = path.startsWith('/token') ? TOKEN_SERVICE_CLASSES[resultCode] : undefined;
  const Class = specific ?? CODE_CLASSES.get(resultCode) ?? ItpError;
  return new Class(resultMessage || `resultCode ${resultCode} from ${method}`, {
    source: 'service',
    code: resultCode,
    status,
    operation: method,
    retryAfter,
  });
}

export interface RpcFailure {
  method: string;
  code: number;
  message: string;
  data?: unknown;
  status: number;
}

/** A JSON-RPC protocol error (`error.code` an integer). */
export function rpcError({ method, code, message, data, status }: RpcFailure): ItpError {
  const Class = RPC_CODE_CLASSES.get(code) ?? RpcError;
  return new Class(message, { source: 'jsonrpc', code, status, operation: method, data });
}
