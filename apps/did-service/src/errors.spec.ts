import { describe, it } from '@jest/globals';
import { DID_ERRORS } from '@itp/schemas';
import { expectRestErrorsInCatalog } from '@itp/testing';
import * as errors from './errors.js';

describe('did-service errors', () => {
  it('are all in the API error catalog (DID_ERRORS) with their status and code', () => {
    expectRestErrorsInCatalog(errors, DID_ERRORS);
  });
});
