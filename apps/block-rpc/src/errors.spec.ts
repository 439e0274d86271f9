import { describe, it } from '@jest/globals';
import { BLOCK_SERVICE_ERRORS } from '@itp/schemas';
import { expectServiceErrorsInCatalog } from '@itp/testing';
import * as errors from './errors.js';

// The catalog (BLOCK_SERVICE_ERRORS, @itp/schemas) is where each code is written: the README table, the API
// documents and the SDK's error map come from it. An error class of this app that answers a
// code the catalog does not name fails here.
describe("block-rpc's error classes", () => {
  it('each answer with a code of the catalog', () => {
    expectServiceErrorsInCatalog(errors, BLOCK_SERVICE_ERRORS);
  });
});
