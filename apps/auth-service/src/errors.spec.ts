import { describe, it } from '@jest/globals';
import { AUTH_ERRORS } from '@itp/schemas';
import { expectRestErrorsInCatalog } from '@itp/testing';
import * as errors from './errors.js';

// The catalog (AUTH_ERRORS, @itp/schemas) is where each code is written: the README table, the API
// documents and the SDK's error map come from it. An error class of this app that answers a
// code the catalog does not name fails here.
describe("auth-service's error classes", () => {
  it('each answer with a code of the catalog', () => {
    expectRestErrorsInCatalog(errors, AUTH_ERRORS);
  });
});
