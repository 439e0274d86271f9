import { describe, expect, it } from '@jest/globals';
import { AUTH_ERRORS, BLOCK_SERVICE_ERRORS, DID_ERRORS, TOKEN_SERVICE_ERRORS } from '@itp/schemas';
import {
  BadRequestError,
  InsufficientFundsError,
  InvalidClientError,
  InvalidCredentialsError,
  InvalidParamsRpcError,
  LoginRequestPendingError,
  LoginRequestUnknownError,
  MethodNotFoundRpcError,
  NotFoundError,
  RpcError,
  ServiceUnavailableError,
  SiteGrantNotFoundError,
  SlowDownError,
  StepUpRequiredError,
  TempKeyError,
  TooManyRequestsError,
  TransportRpcError,
  UnauthorizedError,
  UnexpectedResponseError,
  WalletAuthorizationError,
} from './error-classes.js';
import { CODE_CLASSES, RPC_CODE_CLASSES, restError, rpcError, serviceError } from './error-map.js';
import { ItpError } from './itp-error.js';

describe('error map', () => {
  it('has a class for every code of every catalog in @itp/schemas', () => {
    const restCodes = [...Object.values(AUTH_ERRORS), ...Object.values(DID_ERRORS)].map(
      (e) => e.code,
    );
    const serviceCodes = [
      ...Object.values(TOKEN_SERVICE_ERRORS),
      ...Object.values(BLOCK_SERVICE_ERRORS),
    ].map((e) => e.resultCode);
    for (const code of [...restCodes, ...serviceCodes]) {
      expect([code, CODE_CLASSES.get(code)?.code]).toEqual([code, code]);
    }
  });

  it('maps every REST catalog entry to a class whose instances carry its status and code', () => {
    for (const { status, code } of [...Object.values(AUTH_ERRORS), ...Object.values(DID_ERRORS)]) {
      const err = restError({
        path: '/v2/did/create-vc',
        status,
        body: { error: { code, message: 'm' } },
      });
      expect(err).toBeInstanceOf(CODE_CLASSES.get(code));
      expect([err.code, err.status, err.source, err.message]).toEqual([code, status, 'rest', 'm']);
    }
  });

  it('has a class for each JSON-RPC protocol code of docs/api.md §6', () => {
    const codes = [-32700, -32701, -32702, -32600, -32601, -32602, -32603, -32500, -32400, -32300];
    expect([...RPC_CODE_CLASSES.keys()].sort()).toEqual(codes.sort());
    for (const code of codes) {
      const err = rpcError({ method: 'm', code, message: 'x', status: 200 });
      expect(err).toBeInstanceOf(RpcError);
      expect(err.constructor).toBe(RPC_CODE_CLASSES.get(code));
      expect(err.code).toBe(code);
    }
  });

  it('names what a code means on the QR-login and password endpoints', () => {
    const at = (path: string, status: number, code: string) =>
      restError({ path, status, body: { error: { code, message: 'x' } } });
    expect(at('/v2/auth/auth-user', 401, '401')).toBeInstanceOf(InvalidCredentialsError);
    expect(at('/v2/auth/auth-user-result-by-app', 401, '401')).toBeInstanceOf(
      LoginRequestPendingError,
    );
    expect(at('/v2/auth/auth-user-result-by-app', 400, '400')).toBeInstanceOf(
      LoginRequestUnknownError,
    );
    expect(at('/v2/auth/auth-user-result-by-app', 401, 'invalid_client')).toBeInstanceOf(
      InvalidClientError,
    );
    const slow = restError({
      path: '/v2/auth/auth-user-result-by-app',
      status: 429,
      body: { error: { code: 'slow_down', message: 'x' } },
      retryAfter: 2,
    });
    expect(slow).toBeInstanceOf(SlowDownError);
    expect(slow).toBeInstanceOf(TooManyRequestsError);
    expect(slow.retryAfter).toBe(2);
    // a subclass is still its code's class
    expect(at('/v2/auth/auth-user', 401, '401')).toBeInstanceOf(UnauthorizedError);
    expect(at('/v2/did/create-vc', 401, '401')).not.toBeInstanceOf(InvalidCredentialsError);
  });

  it("maps the step-up challenge (RFC 9470) with its max_age, and revoke-site's 404", () => {
    const stepUp = restError({
      path: '/v2/auth/link-address',
      status: 401,
      body: { error: { code: 'insufficient_user_authentication', message: 'log in again' } },
      wwwAuthenticate:
        'Bearer error="insufficient_user_authentication", error_description="x", max_age=120',
    });
    expect(stepUp).toBeInstanceOf(StepUpRequiredError);
    expect(stepUp).toBeInstanceOf(UnauthorizedError);
    expect([stepUp.code, (stepUp as StepUpRequiredError).maxAgeSeconds]).toEqual([
      'insufficient_user_authentication',
      120,
    ]);
    const missing = restError({
      path: '/v2/auth/revoke-site',
      status: 404,
      body: { error: { code: '404', message: 'x' } },
    });
    expect(missing).toBeInstanceOf(SiteGrantNotFoundError);
    expect(missing).toBeInstanceOf(NotFoundError);
  });

  it('maps an answer without the error shape by its HTTP status, an unknown code to UnexpectedResponseError', () => {
    const plain = restError({
      path: '/v2/did/issuers',
      status: 503,
      body: 'Service Unavailable',
      retryAfter: 7,
    });
    expect(plain).toBeInstanceOf(ServiceUnavailableError);
    expect([plain.code, plain.retryAfter]).toEqual(['503', 7]);
    const odd = restError({ path: '/v2/did/issuers', status: 418, body: undefined });
    expect(odd).toBeInstanceOf(UnexpectedResponseError);
    expect(odd.status).toBe(418);
  });

  it('maps service errors by resultCode, with the token API meaning of 401', () => {
    const at = (path: string, resultCode: string) =>
      serviceError({ path, method: 'transfer', resultCode, resultMessage: 'msg', status: 200 });
    expect(at('/token', '402')).toBeInstanceOf(InsufficientFundsError);
    expect(at('/token', '409')).toBeInstanceOf(TempKeyError);
    expect(at('/token/erc20', '401')).toBeInstanceOf(WalletAuthorizationError);
    expect(at('/block', '404')).toBeInstanceOf(NotFoundError);
    expect(at('/block', '404').source).toBe('service');
    expect(at('/token', '400')).toBeInstanceOf(BadRequestError);
    const unknown = at('/token', '599');
    expect(unknown.constructor).toBe(ItpError);
    expect(unknown.code).toBe('599');
  });

  it('falls back to RpcError for an undocumented protocol code and keeps data', () => {
    const err = rpcError({
      method: 'x',
      code: -32099,
      message: 'odd',
      data: { a: 1 },
      status: 200,
    });
    expect(err.constructor).toBe(RpcError);
    expect(err.data).toEqual({ a: 1 });
    expect(rpcError({ method: 'x', code: -32601, message: 'm', status: 200 })).toBeInstanceOf(
      MethodNotFoundRpcError,
    );
    expect(rpcError({ method: 'x', code: -32602, message: 'm', status: 200 })).toBeInstanceOf(
      InvalidParamsRpcError,
    );
    expect(rpcError({ method: 'x', code: -32300, message: 'm', status: 502 })).toBeInstanceOf(
      TransportRpcError,
    );
  });

  it('gives every class a static code equal to its instances’ default code and its name', () => {
    const err = new InsufficientFundsError('x', { source: 'service' });
    expect([InsufficientFundsError.code, err.code, err.name]).toEqual([
      '402',
      '402',
      'InsufficientFundsError',
    ]);
    expect(err).toBeInstanceOf(Error);
  });
});
