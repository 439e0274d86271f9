import { describe, it } from '@jest/globals';
import { AUTH_ERRORS } from '@itp/schemas';
import { expectRestErrorsInCatalog } from '@itp/testing';
import * as errors from './errors.js';

describe('auth-service errors', () => {
  it('are all in the API error catalog (AUTH_ERRORS) with their status and code', () => {
    expectRestErrorsInCatalog(errors, AUTH_ERRORS);
  });
});
