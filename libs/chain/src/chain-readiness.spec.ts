import { describe, expect, it } from '@jest/globals';
import { runReadiness } from '@itp/service-kit';
import { startAnvil } from './anvil.js';
import { createChainClient } from './chain-client.js';
import { chainReadinessCheck } from './chain-readiness.js';
import { freePort } from './free-port.js';

describe('chainReadinessCheck', () => {
  it('is ok while the node answers and names the chain when it does not', async () => {
    const anvil = await startAnvil();
    const up = createChainClient({ rpcUrl: anvil.url });
    const down = createChainClient({ rpcUrl: `http://127.0.0.1:${await freePort()}` });
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
    await anvil.stop();
  });
});
