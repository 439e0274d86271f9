import { describe, expect, it } from '@jest/globals';
import { runReadiness } from '@itp/service-kit';
import { createChainClient } from './chain-client.js';
import { chainReadinessCheck } from './chain-readiness.js';
import { testChainUrl, REFUSING_URL } from './testing/test-chain.js';

describe('chainReadinessCheck', () => {
  it('is ok while the node answers and names the chain when it does not', async () => {
    const anvil = { url: testChainUrl() };
    const up = createChainClient({ rpcUrl: anvil.url });
    const down = createChainClient({ rpcUrl: REFUSING_URL });
    expect(chainReadinessCheck(up).name).toBe('chain');
    expect(await runReadiness([chainReadinessCheck(up)], 5000)).toEqual({
      status: 'ready',
      checks: { chain: 'ok' },
      notReady: [],
    });
    expect(await runReadiness([chainReadinessCheck(down)], 5000)).toEqual({
      status: 'not ready',
      checks: { chain: 'error: Chain node unavailable: connection failed (ECONNREFUSED)' },
      notReady: ['chain'],
    });
    await Promise.all([up.close(), down.close()]);
  });
});
