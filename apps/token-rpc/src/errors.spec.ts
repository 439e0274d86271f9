import { describe, it } from '@jest/globals';
import { TOKEN_SERVICE_ERRORS, TOKEN_TRANSACTION_ERRORS } from '@itp/schemas';
import { expectServiceErrorsInCatalog } from '@itp/testing';
import * as errors from './errors.js';

describe('token-rpc errors', () => {
  it('all have their resultCode in the token API error catalog', () => {
    expectServiceErrorsInCatalog(errors, [
      ...Object.values(TOKEN_SERVICE_ERRORS),
      ...TOKEN_TRANSACTION_ERRORS,
    ]);
  });
});
