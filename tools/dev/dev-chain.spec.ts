import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { createChainClient } from '@itp/chain';
import { DEV_CHAIN } from '@itp/dev-chain';
import { waitFor } from '@itp/testing/wait-for';
import { startDevChain, stateNotice } from './dev-chain.js';

interface Header {
  number: string;
  hash: string;
  parentHash: string;
}

const BOB = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';

describe('startDevChain on a data folder', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'itp-dev-chain-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('presents one history across restarts: block 0 stays, block 1 links to it, old blocks stay', async () => {
    const seen: Header[] = []; // every block of the chain so far, as first served
    let lastStartSecond = -1; // the second anvil started in last (at the latest)
    // The first start and four restarts: before settleAnvilState each restart added a genesis
    // block to the state file and anvil served one of them at random (1 in 24 to pass by luck).
    for (let start = 0; start < 5; start += 1) {
      // anvil's new genesis at a start has the second as its timestamp: a restart within the
      // same second adds an identical block, one in a later second another one. Each restart
      // here is in a later second than the start before it.
      await waitFor(() => Math.floor(Date.now() / 1000) > lastStartSecond, {
        what: 'a second later than the last start',
      });
      const chain = await startDevChain(dataDir);
      lastStartSecond = Math.floor(Date.now() / 1000);
      const client = createChainClient({ rpcUrl: chain.anvil.url });
      try {
        expect(chain.didRegistryAddress).toBe(DEV_CHAIN.didRegistryAddress);
        const head = Number(await client.request<string>('eth_blockNumber'));
        expect(head).toBe(seen.length === 0 ? 1 : seen.length - 1); // nothing lost, nothing added
        const blocks = await Promise.all(
          Array.from({ length: head + 1 }, (_, n) =>
            client.request<Header>('eth_getBlockByNumber', [`0x${n.toString(16)}`, false]),
          ),
        );
        for (const [n, block] of blocks.entries()) {
          if (n > 0) expect(block.parentHash).toBe(blocks[n - 1]?.hash);
          if (seen[n]) expect(block.hash).toBe(seen[n].hash);
          else seen.push(block);
        }

        const tx = await client.request<string>('eth_sendTransaction', [
          { from: DEV_CHAIN.devOnlyAccount0.address, to: BOB, value: '0x1' },
        ]);
        const receipt = await waitFor(
          () => client.request<{ blockHash: string } | null>('eth_getTransactionReceipt', [tx]),
          { what: `the receipt of ${tx}`, intervalMs: 10 },
        );
        seen.push(await client.request<Header>('eth_getBlockByHash', [receipt.blockHash, false]));
      } finally {
        await client.close();
        await chain.anvil.stop();
      }
      // anvil adds a genesis block at each start; settling keeps the file at one chain's worth.
      const state = JSON.parse(readFileSync(chain.stateFile, 'utf8')) as {
        blocks: Array<{ header: { number: string } }>;
      };
      const genesisBlocks = state.blocks.filter((b) => Number(b.header.number) === 0).length;
      expect(genesisBlocks).toBeLessThanOrEqual(2);
    }
    expect(seen).toHaveLength(7); // genesis, the registry, five transfers
  }, 60_000);
});

describe('stateNotice', () => {
  const file = '/data/chain/state.json';

  it("says nothing of a new chain, a consistent file, or the one genesis anvil's last start added", () => {
    expect(stateNotice(file, { outcome: 'absent' })).toBeUndefined();
    expect(stateNotice(file, { outcome: 'consistent' })).toBeUndefined();
    expect(
      stateNotice(file, { outcome: 'settled', genesisHash: '0xab', removedBlocks: 1 }),
    ).toBeUndefined();
  });

  it('tells of a repaired file and of one it could not check', () => {
    expect(stateNotice(file, { outcome: 'settled', genesisHash: '0xab', removedBlocks: 3 })).toBe(
      `removed 3 stray genesis blocks from ${file} (earlier starts wrote them); block 0 is 0xab again`,
    );
    expect(stateNotice(file, { outcome: 'skipped', reason: 'the file is not JSON' })).toBe(
      `could not check ${file} (the file is not JSON): block 0 may not be the block 1 links to`,
    );
  });
});
