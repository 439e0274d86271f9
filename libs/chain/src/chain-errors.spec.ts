import { describe, expect, it } from '@jest/globals';
import { ChainRpcError, ChainUnavailableError } from './chain-errors.js';

describe('chain errors as callers see them', () => {
  it('is a dependency outage: code and status 503, shown to callers (never the node URL)', () => {
    const err = new ChainUnavailableError('connection refused');
    expect(err.code).toBe('503');
    expect(err.status).toBe(503);
    expect(err.expose).toBe(true);
  });

  it('hides the node’s own error text behind the generic internal error', () => {
    expect(new ChainRpcError('eth_call', -32000, 'upstream provider key abc expired').expose).toBe(
      false,
    );
  });
});
