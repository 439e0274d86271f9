import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { startAnvil } from './anvil.js';
import { createChainClient } from '@itp/chain';
import { freePort } from './free-port.js';

describe('startAnvil', () => {
  const dir = mkdtempSync(join(tmpdir(), 'itp-anvil-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps blocks and balances in its state file across a stop', async () => {
    const stateFile = join(dir, 'state.json');
    const account = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
    const first = await startAnvil({ stateFile });
    const client = createChainClient({ rpcUrl: first.url });
    await client.request('anvil_setBalance', [account, '0x1234']);
    await client.request('evm_mine');
    await client.request('evm_mine');
    const block = await client.request<{ hash: string }>('eth_getBlockByNumber', ['0x2', false]);
    await client.close();
    await first.stop();

    const second = await startAnvil({ stateFile });
    const again = createChainClient({ rpcUrl: second.url });
    try {
      expect(await again.request('eth_blockNumber')).toBe('0x2');
      const kept = await again.request<{ hash: string }>('eth_getBlockByNumber', ['0x2', false]);
      expect(kept.hash).toBe(block.hash);
      expect(await again.request('eth_getBalance', [account, 'latest'])).toBe('0x1234');
    } finally {
      await again.close();
      await second.stop();
    }
  });

  it('refuses a port another node listens on', async () => {
    const taken = await startAnvil();
    const port = Number(new URL(taken.url).port);
    try {
      await expect(startAnvil({ port })).rejects.toThrow(
        `anvil cannot listen on 127.0.0.1:${port}: Error: listen EADDRINUSE`,
      );
    } finally {
      await taken.stop();
    }
  });

  it("fails with anvil's own message when it cannot start", async () => {
    const stateFile = join(dir, 'broken.json');
    writeFileSync(stateFile, 'this is no chain state');
    await expect(startAnvil({ stateFile })).rejects.toThrow(
      /^anvil exited with code [1-9]\d*: .*failed to parse json/,
    );
  });

  it('starts on the port it is given', async () => {
    const port = await freePort();
    const anvil = await startAnvil({ port, chainId: 4242 });
    const client = createChainClient({ rpcUrl: anvil.url });
    try {
      expect(anvil.url).toBe(`http://127.0.0.1:${port}`);
      expect(await client.chainId()).toBe(4242);
    } finally {
      await client.close();
      await anvil.stop();
    }
  });
});
