import { describe, expect, it } from '@jest/globals';
import {
  BadRequestError,
  BaseError,
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
});
