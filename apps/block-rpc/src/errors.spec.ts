import { describe, it } from '@jest/globals';
import { BLOCK_CHAIN_ERRORS, BLOCK_SERVICE_ERRORS } from '@itp/schemas';
import { expectServiceErrorsInCatalog } from '@itp/testing';
import * as errors from './errors.js';

describe('block-rpc errors', () => {
  it('all have their resultCode in the block API error catalog', () => {
    expectServiceErrorsInCatalog(errors, [
      ...Object.values(BLOCK_SERVICE_ERRORS),
      ...BLOCK_CHAIN_ERRORS,
    ]);
  });
});
