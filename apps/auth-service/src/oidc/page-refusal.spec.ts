import { describe, expect, it } from '@jest/globals';
import {
  BadRequestError,
  ServiceUnavailableError,
  TooManyRequestsError,
  UnauthorizedError,
} from '@itp/errors';
import { pageRefusal } from './oidc-login.js';

describe('pageRefusal (the login page wording shared by its ways of logging in)', () => {
  it('a limit: 429 with whole seconds to wait, said and sent as Retry-After', () => {
    expect(pageRefusal(new TooManyRequestsError('limit', 12.2))).toEqual({
      status: 429,
      error: 'Too many attempts: try again in 13 seconds',
      retryAfterSeconds: 13,
    });
  });

  it('a dependency down: 503 with its own Retry-After', () => {
    expect(
      pageRefusal(new ServiceUnavailableError('redis down', { retryAfterSeconds: 7 })),
    ).toEqual({
      status: 503,
      error: 'Login is unavailable right now; try again later',
      retryAfterSeconds: 7,
    });
  });

  it('anything else is left to the caller', () => {
    expect(pageRefusal(new UnauthorizedError('no'))).toBeUndefined();
    expect(pageRefusal(new BadRequestError('bad'))).toBeUndefined();
    expect(pageRefusal(new Error('boom'))).toBeUndefined();
  });
});
