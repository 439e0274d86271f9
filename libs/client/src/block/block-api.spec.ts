import { describe, expect, it } from '@jest/globals';
import { createClient } from '../client.js';
import { fakeFetch, rpcResult } from '../testing/fake-fetch.js';

describe('block API params (docs/api.md §5, by position)', () => {
  it('sends [], [block] or [block, fullTransactions]', async () => {
    const { fetch, seen } = fakeFetch((req) => rpcResult(req, { resultData: {} }));
    const { block } = createClient({ baseUrl: 'http://gw', fetch });
    await block.getBlock();
    await block.getBlock(5);
    await block.getBlock(undefined, { fullTransactions: true });
    await block.getTransactionStats({ from: '2026-01-01', to: '2026-01-02' });
    expect(seen.map((r) => (r.body as { params: unknown }).params)).toEqual([
      [],
      [5],
      ['latest', true],
      [{ from: '2026-01-01', to: '2026-01-02' }],
    ]);
    expect(new Set(seen.map((r) => (r.body as { id: number }).id)).size).toBe(4);
  });
});
