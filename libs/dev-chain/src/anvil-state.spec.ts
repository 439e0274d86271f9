import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createChainClient } from '@itp/chain';
import { waitFor } from '@itp/service-kit/testing/wait-for';
import { headerHash, settleAnvilState } from './anvil-state.js';
import { startAnvil } from './anvil.js';

interface Header {
  number: string;
  hash: string;
  parentHash: string;
  timestamp: string;
}
interface StateFile {
  blocks: Array<{ header: Record<string, unknown> }>;
  [key: string]: unknown;
}

const ALICE = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const BOB = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';

const readState = (file: string): StateFile => JSON.parse(readFileSync(file, 'utf8')) as StateFile;
const genesisCount = (state: StateFile): number =>
  state.blocks.filter((b) => BigInt(b.header.number as string) === 0n).length;

/** anvil on `file` exactly as it is (--load-state, no settling, nothing written on exit). */
async function serve(file: string, run: (block: (n: number) => Promise<Header>) => Promise<void>) {
  const anvil = await startAnvil({ args: ['--load-state', file] });
  const client = createChainClient({ rpcUrl: anvil.url });
  try {
    await run((n) =>
      client.request<Header>('eth_getBlockByNumber', [`0x${n.toString(16)}`, false]),
    );
  } finally {
    await client.close();
    await anvil.stop();
  }
}

describe('settleAnvilState', () => {
  const dir = mkdtempSync(join(tmpdir(), 'itp-anvil-state-'));
  const chainFile = join(dir, 'chain.json');
  let genesis: Header;
  let block1: Header;

  // A chain of two transactions, saved by anvil itself.
  beforeAll(async () => {
    const anvil = await startAnvil({ stateFile: chainFile });
    const client = createChainClient({ rpcUrl: anvil.url });
    try {
      for (const value of ['0x1', '0x2']) {
        const hash = await client.request<string>('eth_sendTransaction', [
          { from: ALICE, to: BOB, value },
        ]);
        await waitFor(
          async () => (await client.request('eth_getTransactionReceipt', [hash])) !== null,
          {
            what: `transaction ${hash} to be mined`,
            intervalMs: 10,
          },
        );
      }
      genesis = await client.request<Header>('eth_getBlockByNumber', ['0x0', false]);
      block1 = await client.request<Header>('eth_getBlockByNumber', ['0x1', false]);
    } finally {
      await client.close();
      await anvil.stop();
    }
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** The saved chain plus a stray genesis (another timestamp), placed as `where` says. */
  function withStrayGenesis(name: string, where: 'last' | 'first', withoutBlocksAbove0 = false) {
    const state = readState(chainFile);
    const [original] = state.blocks.filter((b) => BigInt(b.header.number as string) === 0n);
    if (!original) throw new Error('no genesis in the saved state');
    const stray = {
      ...original,
      header: {
        ...original.header,
        timestamp: `0x${(Number(genesis.timestamp) + 1000).toString(16)}`,
      },
    };
    const others = withoutBlocksAbove0
      ? []
      : state.blocks.filter((b) => BigInt(b.header.number as string) !== 0n);
    state.blocks = where === 'last' ? [original, ...others, stray] : [stray, ...others, original];
    const file = join(dir, name);
    writeFileSync(file, JSON.stringify(state));
    return { file, strayHash: headerHash(stray.header) };
  }

  it('computes the hashes anvil gives its blocks', () => {
    const state = readState(chainFile);
    const hashes = state.blocks.map((b) => headerHash(b.header));
    expect(hashes).toContain(genesis.hash);
    expect(hashes).toContain(block1.hash);
  });

  it("keeps the genesis block 1 names when anvil's file order would serve another", async () => {
    const { file, strayHash } = withStrayGenesis('stray-last.json', 'last');
    // The defect: anvil serves the genesis that comes last in the file, whatever block 1 says.
    await serve(file, async (block) => {
      expect((await block(0)).hash).toBe(strayHash);
      expect((await block(1)).parentHash).toBe(genesis.hash);
    });

    expect(settleAnvilState(file)).toEqual({
      outcome: 'settled',
      genesisHash: genesis.hash,
      removedBlocks: 1,
    });
    expect(genesisCount(readState(file))).toBe(1);
    await serve(file, async (block) => {
      expect(await block(0)).toMatchObject({ hash: genesis.hash });
      expect(await block(1)).toMatchObject({ hash: block1.hash, parentHash: genesis.hash });
      expect(await block(2)).toMatchObject({ parentHash: block1.hash });
    });
  });

  it('keeps only the genesis block 1 names whatever their order, and changes nothing else', () => {
    const { file, strayHash } = withStrayGenesis('stray-first.json', 'first');
    const before = readState(file);
    expect(settleAnvilState(file)).toMatchObject({ outcome: 'settled', genesisHash: genesis.hash });
    expect(readState(file)).toEqual({
      ...before,
      blocks: before.blocks.filter((b) => headerHash(b.header) !== strayHash),
    });
  });

  it('keeps the earliest genesis when no block 1 names one', () => {
    const { file } = withStrayGenesis('no-block-1.json', 'first', true);
    expect(settleAnvilState(file)).toEqual({
      outcome: 'settled',
      genesisHash: genesis.hash,
      removedBlocks: 1,
    });
  });

  it('leaves a file alone that is missing, consistent, not JSON or not exactly rewritable', () => {
    expect(settleAnvilState(join(dir, 'missing.json'))).toEqual({ outcome: 'absent' });

    const mtime = statSync(chainFile).mtimeMs;
    expect(settleAnvilState(chainFile)).toEqual({ outcome: 'consistent' });
    expect(statSync(chainFile).mtimeMs).toBe(mtime);

    const garbage = join(dir, 'garbage.json');
    writeFileSync(garbage, 'this is no chain state');
    expect(settleAnvilState(garbage)).toMatchObject({ outcome: 'skipped' });
    expect(readFileSync(garbage, 'utf8')).toBe('this is no chain state');

    const { file } = withStrayGenesis('big-number.json', 'last');
    const text = readFileSync(file, 'utf8').replace(/^\{/, '{"huge":18446744073709551615,');
    writeFileSync(file, text);
    expect(settleAnvilState(file)).toEqual({
      outcome: 'skipped',
      reason: 'the file holds numbers JSON cannot rewrite exactly',
    });
    expect(readFileSync(file, 'utf8')).toBe(text);
  });
});
