import { describe, expect, it } from '@jest/globals';
import {
  BadRequestError,
  BaseError,
  DEFAULT_RETRY_AFTER_SECONDS,
  ServiceUnavailableError,
  TooManyRequestsError,
  UnauthorizedError,
  isBaseError,
} from './index.js';

describe('BaseError', () => {
  it('carries the class code, the HTTP status and the subclass name', () => {
    const err = new UnauthorizedError('bad credentials');
    expect(err).toBeInstanceOf(BaseError);
    expect(err.code).toBe('401');
    expect(err.status).toBe(401);
    expect(err.name).toBe('UnauthorizedError');
    expect(isBaseError(err)).toBe(true);
    expect(isBaseError(new Error('x'))).toBe(false);
  });

  it('keeps the cause without exposing it in the message', () => {
    const cause = new Error('db down');
    const err = new BadRequestError('invalid', { cause });
    expect(err.cause).toBe(cause);
    expect(err.message).toBe('invalid');
  });

  it('rounds Retry-After up to whole seconds, at least 1', () => {
    expect(new TooManyRequestsError('slow down', 0.2).retryAfterSeconds).toBe(1);
    expect(new TooManyRequestsError('slow down', 4.1).retryAfterSeconds).toBe(5);
  });

  it('gives every ServiceUnavailableError a Retry-After: the default, or the given whole seconds', () => {
    const cause = new Error('connect ECONNREFUSED');
    const plain = new ServiceUnavailableError('database down', { cause });
    expect(plain.status).toBe(503);
    expect(plain.code).toBe('503');
    expect(plain.cause).toBe(cause);
    expect(plain.expose).toBe(true);
    expect(plain.retryAfterSeconds).toBe(DEFAULT_RETRY_AFTER_SECONDS);
    expect(new ServiceUnavailableError('x', { retryAfterSeconds: 0.3 }).retryAfterSeconds).toBe(1);
    expect(new ServiceUnavailableError('x', { retryAfterSeconds: 12.5 }).retryAfterSeconds).toBe(
      13,
    );
    expect(new ServiceUnavailableError('x', { retryAfterSeconds: NaN }).retryAfterSeconds).toBe(
      DEFAULT_RETRY_AFTER_SECONDS,
    );
  });
});
